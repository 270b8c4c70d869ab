import { exportPrivateKeyJwk, importPrivateKeyJwk } from '@veil/crypto';
import { get, set } from 'idb-keyval';

/**
 * The user's RSA private key, as JWK, in IndexedDB under the spec's entry `my-private-key`.
 * idb-keyval's default store: database `keyval-store`, object store `keyval`. The key never
 * leaves the browser.
 */
export const privateKeyEntry = 'my-private-key';
export const missingPrivateKeyText = 'Private key not found in IndexedDB';

let loaded: Promise<CryptoKey | null> | null = null;

export const savePrivateKey = async (key: CryptoKey): Promise<void> => {
  await set(privateKeyEntry, await exportPrivateKeyJwk(key));
  loaded = null;
};

const load = async (): Promise<CryptoKey | null> => {
  try {
    const jwk = await get<JsonWebKey>(privateKeyEntry);
    return jwk ? await importPrivateKeyJwk(jwk) : null;
  } catch (error) {
    console.error('Could not read the private key', error);
    return null;
  }
};

/** The stored private key (imported once per page), or null when this browser has none. */
export const loadPrivateKey = (): Promise<CryptoKey | null> => {
  loaded ??= load().then((key) => {
    if (!key) loaded = null; // not there yet: look again next time (e.g. after registering)
    return key;
  });
  return loaded;
};
