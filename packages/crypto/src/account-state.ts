import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { VeilCryptoError } from './errors.ts';
import { importPublicKeySpkiBase64 } from './keys.ts';
import { importSigningPublicKeySpkiBase64 } from './signing-key.ts';

/**
 * What an account's browsers share beside their keys (docs/crypto.md, "What travels with the
 * keys"): a JSON text the caller defines, stored on the server inside the key backup. It is
 * sealed for the account's own encryption key (a fresh AES-GCM key wrapped with RSA-OAEP), so
 * any browser holding that key reads it, and signed with the account's signing key, so the
 * server, which can seal anything for a public key, cannot write one. Any browser of the account
 * can replace it without the backup's recovery key or passphrase.
 */
export const accountStateVersion = 1;

export interface SealedAccountState {
  version: typeof accountStateVersion;
  /** The encryption key (base64 SPKI) it is sealed for. */
  encryptionKey: string;
  /** The signing key (base64 SPKI) that signed it. */
  signingKey: string;
  /** The AES-GCM key, RSA-OAEP-encrypted for `encryptionKey`. */
  wrappedKey: string;
  iv: string;
  ciphertext: string;
  /** ECDSA P-256 (SHA-256) over every field above. */
  signature: string;
}

const utf8 = (text: string) => new TextEncoder().encode(text);
const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

const additionalData = (encryptionKey: string, signingKey: string) =>
  utf8(`veil account state ${accountStateVersion}|${encryptionKey}|${signingKey}`);

const signedBytes = (state: Omit<SealedAccountState, 'signature'>) =>
  utf8(
    [
      `veil account state ${state.version}`,
      state.encryptionKey,
      state.signingKey,
      state.wrappedKey,
      state.iv,
      state.ciphertext,
    ].join('\n'),
  );

const unreadable = () =>
  new VeilCryptoError('ERR_ACCOUNT_STATE', "The account's saved state could not be opened");

/** Seals `text` for the account's encryption key and signs it with its signing key. */
export const sealAccountState = async (
  text: string,
  keys: { encryptionKey: string; signingKey: string; signingPrivateKey: CryptoKey },
): Promise<SealedAccountState> => {
  const aesKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const [ciphertext, rawKey] = await Promise.all([
    crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: additionalData(keys.encryptionKey, keys.signingKey) },
      aesKey,
      utf8(text),
    ),
    crypto.subtle.exportKey('raw', aesKey),
  ]);
  const wrapped = await crypto.subtle.encrypt(
    { name: 'RSA-OAEP' },
    await importPublicKeySpkiBase64(keys.encryptionKey),
    rawKey,
  );
  const unsigned = {
    version: accountStateVersion,
    encryptionKey: keys.encryptionKey,
    signingKey: keys.signingKey,
    wrappedKey: bytesToBase64(new Uint8Array(wrapped)),
    iv: bytesToBase64(iv),
    ciphertext: bytesToBase64(new Uint8Array(ciphertext)),
  } as const;
  const signature = await crypto.subtle.sign(ecdsaSha256, keys.signingPrivateKey, signedBytes(unsigned));
  return { ...unsigned, signature: bytesToBase64(new Uint8Array(signature)) };
};

/**
 * The text of a sealed state, if it is signed by `signingKey` (the account's, as its checked key
 * log names it) and one of `privateKeys` opens it; ERR_ACCOUNT_STATE otherwise.
 */
export const openAccountState = async (
  state: SealedAccountState,
  expected: { signingKey: string; privateKeys: readonly CryptoKey[] },
): Promise<string> => {
  if (typeof state !== 'object' || state === null || state.version !== accountStateVersion)
    throw unreadable();
  if (state.signingKey !== expected.signingKey) throw unreadable();
  let bytes: {
    wrapped: Uint8Array<ArrayBuffer>;
    iv: Uint8Array<ArrayBuffer>;
    ciphertext: Uint8Array<ArrayBuffer>;
    signature: Uint8Array<ArrayBuffer>;
  };
  try {
    bytes = {
      wrapped: base64ToBytes(state.wrappedKey),
      iv: base64ToBytes(state.iv),
      ciphertext: base64ToBytes(state.ciphertext),
      signature: base64ToBytes(state.signature),
    };
  } catch {
    throw unreadable();
  }
  const verifier = await importSigningPublicKeySpkiBase64(state.signingKey).catch(() => {
    throw unreadable();
  });
  if (!(await crypto.subtle.verify(ecdsaSha256, verifier, bytes.signature, signedBytes(state))))
    throw unreadable();
  for (const privateKey of expected.privateKeys) {
    try {
      const raw = await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, bytes.wrapped);
      const aesKey = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
      const plain = await crypto.subtle.decrypt(
        {
          name: 'AES-GCM',
          iv: bytes.iv,
          additionalData: additionalData(state.encryptionKey, state.signingKey),
        },
        aesKey,
        bytes.ciphertext,
      );
      return new TextDecoder().decode(plain);
    } catch {
      // Another of the account's keys may be the one it was sealed for.
    }
  }
  throw unreadable();
};
