import { generateTokenKeyPair } from '@veil/tokens';

/**
 * Prints a fresh Ed25519 key pair for access tokens, as the JSON the configuration expects:
 *   JWT_PRIVATE_KEY (auth only) and JWT_PUBLIC_KEY (gateway, realtime).
 * `npm run keys` then e.g. `helm install veil charts/veil --set-file ...` (charts/veil/README.md).
 */
const { privateJwk, publicJwk } = await generateTokenKeyPair();
console.log(
  JSON.stringify(
    { JWT_PRIVATE_KEY: JSON.stringify(privateJwk), JWT_PUBLIC_KEY: JSON.stringify(publicJwk) },
    null,
    2,
  ),
);
