import { VeilCryptoError } from './errors.ts';
import { importPublicKeySpkiBase64 } from './keys.ts';

/**
 * Data a browser keeps for itself only (the search index of decrypted messages), encrypted at
 * rest: an AES-GCM 256-bit vault key, wrapped with the account's RSA-OAEP public key, so that only
 * the account's private key opens it. The wrapped key is stored beside the data; the opened key
 * is non-extractable and lives in memory only.
 */
export interface WrappedVaultKey {
  /** RSA-OAEP (SHA-256) of the raw AES key, for the account key `publicKey`. */
  wrapped: Uint8Array<ArrayBuffer>;
  /** The account's public key it is wrapped for (base64 SPKI): which private key opens it. */
  publicKey: string;
}

export interface SealedVault {
  iv: Uint8Array<ArrayBuffer>;
  ciphertext: Uint8Array<ArrayBuffer>;
}

const aesGcm = { name: 'AES-GCM', length: 256 } as const;
const vaultAdditionalData = new TextEncoder().encode('veil local vault 1');

/** A new vault key for the account whose public key is `publicKeySpki`: the key to use, and its wrapped form to store. */
export const createVaultKey = async (
  publicKeySpki: string,
): Promise<{ key: CryptoKey; wrapped: WrappedVaultKey }> => {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const publicKey = await importPublicKeySpkiBase64(publicKeySpki);
  const [wrapped, key] = await Promise.all([
    crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, raw),
    crypto.subtle.importKey('raw', raw, aesGcm, false, ['encrypt', 'decrypt']),
  ]);
  raw.fill(0);
  return { key, wrapped: { wrapped: new Uint8Array(wrapped), publicKey: publicKeySpki } };
};

/** Opens a wrapped vault key with the first of `privateKeys` that fits; null when none does. */
export const openVaultKey = async (
  wrapped: WrappedVaultKey,
  privateKeys: readonly CryptoKey[],
): Promise<CryptoKey | null> => {
  for (const privateKey of privateKeys) {
    let raw: Uint8Array;
    try {
      raw = new Uint8Array(await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, wrapped.wrapped));
    } catch {
      continue; // not this key
    }
    const key = await crypto.subtle.importKey('raw', raw as Uint8Array<ArrayBuffer>, aesGcm, false, [
      'encrypt',
      'decrypt',
    ]);
    raw.fill(0);
    return key;
  }
  return null;
};

/** Encrypts `text` under the vault key, with a fresh iv. */
export const sealVault = async (key: CryptoKey, text: string): Promise<SealedVault> => {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: vaultAdditionalData },
    key,
    new TextEncoder().encode(text),
  );
  return { iv, ciphertext: new Uint8Array(ciphertext) };
};

/** Decrypts what `sealVault` made; a wrong key or a changed byte is ERR_DECRYPT. */
export const openVault = async (key: CryptoKey, sealed: SealedVault): Promise<string> => {
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: sealed.iv, additionalData: vaultAdditionalData },
      key,
      sealed.ciphertext,
    );
    return new TextDecoder().decode(plain);
  } catch {
    throw new VeilCryptoError('ERR_DECRYPT', 'The local vault does not open with this key');
  }
};
