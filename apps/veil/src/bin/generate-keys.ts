import { generateTokenKeyPair } from '@veil/tokens';
import { generateVapidKeys } from '@veil/web-push';

/**
 * Prints fresh keys as the JSON the configuration expects:
 *   JWT_PRIVATE_KEY (auth only) and JWT_PUBLIC_KEY (gateway, realtime): an Ed25519 pair for access tokens;
 *   VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (message): the Web Push pair browsers subscribe to.
 * `npm run keys` then e.g. `helm install veil charts/veil --set-file ...` (charts/veil/README.md).
 */
const { privateJwk, publicJwk } = await generateTokenKeyPair();
const vapid = generateVapidKeys();
console.log(
  JSON.stringify(
    {
      JWT_PRIVATE_KEY: JSON.stringify(privateJwk),
      JWT_PUBLIC_KEY: JSON.stringify(publicJwk),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
    },
    null,
    2,
  ),
);
