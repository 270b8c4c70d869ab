import { base64ToBytes } from './base64.ts';
import { VeilCryptoError } from './errors.ts';

/**
 * The account's identity signing key: ECDSA on P-256 with SHA-256, which every supported browser
 * and Node offer through WebCrypto (Ed25519 is not yet everywhere). It is published beside the
 * encryption key, goes into the key log and the safety number.
 */
export const ecdsaP256 = { name: 'ECDSA', namedCurve: 'P-256' } as const;

export const generateSigningKeyPair = (): Promise<CryptoKeyPair> =>
  crypto.subtle.generateKey(ecdsaP256, true, ['sign', 'verify']);

/** Imports a base64 SPKI public key and checks it is an ECDSA P-256 key (the server runs this too). */
export const importSigningPublicKeySpkiBase64 = async (spki: string): Promise<CryptoKey> => {
  try {
    return await crypto.subtle.importKey('spki', base64ToBytes(spki), ecdsaP256, true, ['verify']);
  } catch {
    throw new VeilCryptoError('ERR_INVALID_PUBLIC_KEY', 'Not an ECDSA P-256 public key (base64 SPKI)');
  }
};

/** A non-extractable copy of an extractable signing key: it can sign, nobody can read it out. */
export const nonExtractableSigningKey = async (key: CryptoKey): Promise<CryptoKey> =>
  crypto.subtle.importKey('jwk', await crypto.subtle.exportKey('jwk', key), ecdsaP256, false, ['sign']);

/** A private signing JWK as a CryptoKey (extractable only to seal a copy of it). */
export const importSigningPrivateKeyJwk = (jwk: JsonWebKey, extractable: boolean): Promise<CryptoKey> =>
  crypto.subtle.importKey('jwk', jwk, ecdsaP256, extractable, ['sign']);

/** Whether a private EC JWK is the other half of a base64 SPKI P-256 key (same point). */
export const signingJwkMatchesPublicKey = async (privateJwk: JsonWebKey, spki: string): Promise<boolean> => {
  if (privateJwk.kty !== 'EC' || privateJwk.crv !== 'P-256') return false;
  try {
    const publicJwk = await crypto.subtle.exportKey('jwk', await importSigningPublicKeySpkiBase64(spki));
    return publicJwk.x === privateJwk.x && publicJwk.y === privateJwk.y;
  } catch {
    return false;
  }
};
