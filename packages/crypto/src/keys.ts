import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { VeilCryptoError } from './errors.ts';

/** The seed contract's asymmetric key: RSA-OAEP, 2048-bit modulus, exponent 65537, SHA-256. */
export const rsaOaep = {
  name: 'RSA-OAEP',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
} as const;

/** How an RSA-OAEP key is imported or unwrapped (the modulus comes with the key). */
export const importParams = { name: 'RSA-OAEP', hash: 'SHA-256' } as const;

export const generateUserKeyPair = (): Promise<CryptoKeyPair> =>
  crypto.subtle.generateKey(rsaOaep, true, ['encrypt', 'decrypt']);

export const exportPublicKeySpkiBase64 = async (key: CryptoKey): Promise<string> =>
  bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('spki', key)));

/**
 * Imports a base64 SPKI public key and checks it is an RSA key of 2048 to 4096 bits.
 * The server runs this on every uploaded key: a bad key would make messages to that user
 * unreadable, or weak.
 */
export const importPublicKeySpkiBase64 = async (spki: string): Promise<CryptoKey> => {
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey('spki', base64ToBytes(spki), importParams, true, ['encrypt']);
  } catch {
    throw new VeilCryptoError('ERR_INVALID_PUBLIC_KEY', 'Not an RSA-OAEP public key (base64 SPKI)');
  }
  const { modulusLength, publicExponent } = key.algorithm as RsaHashedKeyAlgorithm;
  const exponent = publicExponent.reduce((value, byte) => value * 256 + byte, 0);
  if (modulusLength < 2048 || modulusLength > 4096 || exponent !== 65537) {
    throw new VeilCryptoError(
      'ERR_INVALID_PUBLIC_KEY',
      'RSA public keys must be 2048-4096 bits with exponent 65537',
    );
  }
  return key;
};

/** Only an extractable key exports: a freshly generated one, e.g. for a backup made at registration. */
export const exportPrivateKeyJwk = (key: CryptoKey): Promise<JsonWebKey> =>
  crypto.subtle.exportKey('jwk', key);

/**
 * Imports a private JWK as a non-extractable key: it can decrypt, but no script (ours or an
 * injected one) can read its bytes back out of the browser's key storage.
 */
export const importPrivateKeyJwk = (jwk: JsonWebKey): Promise<CryptoKey> =>
  crypto.subtle.importKey('jwk', jwk, importParams, false, ['decrypt']);

/** A non-extractable copy of an extractable private key (what a browser keeps at rest). */
export const nonExtractablePrivateKey = async (key: CryptoKey): Promise<CryptoKey> =>
  importPrivateKeyJwk(await exportPrivateKeyJwk(key));

/**
 * Whether a private RSA JWK is the other half of a base64 SPKI public key: same modulus `n` and
 * exponent `e`. Anything malformed on either side is simply not a match.
 */
export const privateJwkMatchesPublicKey = async (privateJwk: JsonWebKey, spki: string): Promise<boolean> => {
  if (privateJwk.kty !== 'RSA' || !privateJwk.n || !privateJwk.e) return false;
  try {
    const publicKey = await crypto.subtle.importKey('spki', base64ToBytes(spki), importParams, true, [
      'encrypt',
    ]);
    const publicJwk = await crypto.subtle.exportKey('jwk', publicKey);
    return publicJwk.n === privateJwk.n && publicJwk.e === privateJwk.e;
  } catch {
    return false;
  }
};
