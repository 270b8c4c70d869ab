import { importParams } from './keys.ts';
import { ecdsaP256 } from './signing-key.ts';

/**
 * A private key kept beside its non-extractable copy so that it can be exported once more, for a
 * backup made after registration or for linking another browser (Element's "pickle key"): the
 * PKCS#8 bytes encrypted (AES-GCM) under a sealing key that is itself a non-extractable
 * CryptoKey. Both live in the browser's IndexedDB; a script in the page can unseal, no one
 * reading the sealed bytes alone can. docs/crypto.md weighs what this gives up.
 */
export interface SealedPrivateKey {
  sealingKey: CryptoKey;
  iv: Uint8Array<ArrayBuffer>;
  sealed: ArrayBuffer;
}

const aad = new TextEncoder().encode('veil sealed private key 1');

/** Seals an extractable private key under a fresh non-extractable sealing key. */
export const sealPrivateKey = async (privateKey: CryptoKey): Promise<SealedPrivateKey> => {
  const sealingKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, [
    'wrapKey',
    'unwrapKey',
  ]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.wrapKey('pkcs8', privateKey, sealingKey, {
    name: 'AES-GCM',
    iv,
    additionalData: aad,
  });
  return { sealingKey, iv, sealed };
};

/** Seals a private JWK (an earlier version's stored key, moving to its account). */
export const sealPrivateKeyJwk = async (jwk: JsonWebKey): Promise<SealedPrivateKey> =>
  sealPrivateKey(await crypto.subtle.importKey('jwk', jwk, importParams, true, ['decrypt']));

/** What a sealed key is for: the account's encryption key (RSA-OAEP) or its signing key (ECDSA). */
export type SealedKeyUse = 'encryption' | 'signing';
const unsealAs: Record<
  SealedKeyUse,
  { algorithm: RsaHashedImportParams | EcKeyImportParams; usages: KeyUsage[] }
> = {
  encryption: { algorithm: importParams, usages: ['decrypt'] },
  signing: { algorithm: ecdsaP256, usages: ['sign'] },
};

/** The sealed key, extractable: for the caller to back up (or hand over) and then drop. */
export const unsealPrivateKey = (
  sealed: SealedPrivateKey,
  use: SealedKeyUse = 'encryption',
): Promise<CryptoKey> =>
  crypto.subtle.unwrapKey(
    'pkcs8',
    sealed.sealed,
    sealed.sealingKey,
    { name: 'AES-GCM', iv: sealed.iv, additionalData: aad },
    unsealAs[use].algorithm,
    true,
    unsealAs[use].usages,
  );
