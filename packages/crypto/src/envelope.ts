import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { VeilCryptoError } from './errors.ts';
import { keyCommitmentOf } from './key-commitment.ts';
import { padPlaintext, unpadPlaintext, type Padding } from './padding.ts';

/**
 * One message: a fresh AES-GCM 256-bit key and a random 12-byte iv encrypt the UTF-8 text; the
 * raw key is encrypted with RSA-OAEP (SHA-256) for every recipient. Byte for byte what the
 * spec's original client produced, so either can read the other's messages.
 */
export interface EncryptedEnvelope {
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  /**
   * The commitment to the message key (`keyCommitmentOf`), set by `encryptMessage` for the
   * sender's signature; readers compute their own from the key they unwrap.
   */
  keyCommitment?: string;
}

export const FAILED_TO_DECRYPT = '[Failed to decrypt]';

/**
 * `padding`: the text is padded to a size bucket inside the ciphertext (`padding.ts`); without
 * it, the ciphertext is the seed contract's original (every reader reads both).
 */
export const encryptMessage = async (
  plaintext: string,
  recipients: Record<string, CryptoKey>,
  padding?: Padding,
): Promise<EncryptedEnvelope> => {
  const ids = Object.keys(recipients);
  if (ids.length === 0) throw new VeilCryptoError('ERR_MISSING_INPUT', 'At least one recipient is required');
  const aesKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, true, [
    'encrypt',
    'decrypt',
  ]);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const [ciphertext, rawKey] = await Promise.all([
    crypto.subtle.encrypt(
      { name: 'AES-GCM', iv },
      aesKey,
      padding ? padPlaintext(plaintext, padding) : new TextEncoder().encode(plaintext),
    ),
    crypto.subtle.exportKey('raw', aesKey),
  ]);
  const wrapped = await Promise.all(
    ids.map(
      async (id) =>
        [
          id,
          bytesToBase64(
            new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, recipients[id]!, rawKey)),
          ),
        ] as const,
    ),
  );
  return {
    content: bytesToBase64(new Uint8Array(ciphertext)),
    iv: bytesToBase64(iv),
    encryptedKeys: Object.fromEntries(wrapped),
    keyCommitment: await keyCommitmentOf(rawKey),
  };
};

/**
 * What reading a message gave: its text, or why not. `not-for-user`: the key map has no entry
 * for the reader. `no-key-fits`: none of the reader's keys unwraps the entry (it was sealed for
 * a key this reader does not hold, or the entry is damaged). `damaged`: a key unwrapped the
 * entry but the text does not decrypt. RSA-OAEP's padding check makes a wrong key fail rather
 * than yield a wrong message key, which is what tells the last two apart.
 */
export type MessageReading =
  | {
      ok: true;
      text: string;
      /** The commitment to the key this reader unwrapped: checked against the signed one. */
      keyCommitment: string;
    }
  | { ok: false; failure: 'not-for-user' | 'no-key-fits' | 'damaged' };

const unwrapWithAnyKey = async (
  wrappedKey: Uint8Array<ArrayBuffer>,
  privateKeys: readonly CryptoKey[],
): Promise<ArrayBuffer | null> => {
  for (const privateKey of privateKeys) {
    try {
      return await crypto.subtle.decrypt({ name: 'RSA-OAEP' }, privateKey, wrappedKey);
    } catch {
      // not this key: try the next one
    }
  }
  return null;
};

const decodeBase64 = (value: string): Uint8Array<ArrayBuffer> | null => {
  try {
    return base64ToBytes(value);
  } catch {
    return null;
  }
};

/** Reads a message with whichever of the reader's keys it was wrapped for; never throws. */
export const readMessage = async (
  envelope: EncryptedEnvelope,
  userId: string,
  privateKeys: readonly CryptoKey[],
): Promise<MessageReading> => {
  const entry = envelope.encryptedKeys?.[userId];
  if (!entry) return { ok: false, failure: 'not-for-user' };
  const wrappedKey = decodeBase64(entry);
  const rawKey = wrappedKey && (await unwrapWithAnyKey(wrappedKey, privateKeys));
  if (!rawKey) return { ok: false, failure: 'no-key-fits' };
  try {
    const aesKey = await crypto.subtle.importKey('raw', rawKey, { name: 'AES-GCM' }, false, ['decrypt']);
    const plaintext = unpadPlaintext(
      new Uint8Array(
        await crypto.subtle.decrypt(
          { name: 'AES-GCM', iv: base64ToBytes(envelope.iv) },
          aesKey,
          base64ToBytes(envelope.content),
        ),
      ),
    );
    if (!plaintext) return { ok: false, failure: 'damaged' };
    return {
      ok: true,
      text: new TextDecoder('utf-8', { fatal: true }).decode(plaintext),
      keyCommitment: await keyCommitmentOf(rawKey),
    };
  } catch {
    return { ok: false, failure: 'damaged' };
  }
};

/** A reader's wrapped message key with the ciphertext it must open. */
export interface WrappedMessageKey {
  wrappedKey: string;
  content: string;
  iv: string;
}

/** The length of every message key Veil makes (AES-256). */
const messageKeyBytes = 32;

/** Whether `rawKey` is a 32-byte AES key that opens this ciphertext (its GCM tag holds). */
const opensCiphertext = async (rawKey: ArrayBuffer, content: string, iv: string): Promise<boolean> => {
  if (rawKey.byteLength !== messageKeyBytes) return false;
  try {
    const aesKey = await crypto.subtle.importKey('raw', rawKey, { name: 'AES-GCM' }, false, ['decrypt']);
    await crypto.subtle.decrypt({ name: 'AES-GCM', iv: base64ToBytes(iv) }, aesKey, base64ToBytes(content));
    return true;
  } catch {
    return false;
  }
};

/**
 * The reader's wrapped message key, opened with whichever of `privateKeys` fits and wrapped again
 * for `publicKey` (the reader's current key, after a reset); null when none of them opens it, or
 * when what it opens to is not a 32-byte key that opens the message's ciphertext: a planted key
 * map entry cannot make this browser seal some other secret for another key. The message key
 * itself never leaves this function.
 */
export const rewrapMessageKey = async (
  sealed: WrappedMessageKey,
  privateKeys: readonly CryptoKey[],
  publicKey: CryptoKey,
): Promise<string | null> => {
  const wrapped = decodeBase64(sealed.wrappedKey);
  const rawKey = wrapped && (await unwrapWithAnyKey(wrapped, privateKeys));
  if (!rawKey || !(await opensCiphertext(rawKey, sealed.content, sealed.iv))) return null;
  return bytesToBase64(new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, publicKey, rawKey)));
};

/**
 * Decrypts with whichever of the reader's private keys the message was wrapped for: a browser
 * may hold an account's older keys beside its current one.
 */
export const decryptWithAnyKey = async (
  envelope: EncryptedEnvelope,
  userId: string,
  privateKeys: readonly CryptoKey[],
): Promise<string> => {
  const reading = await readMessage(envelope, userId, privateKeys);
  if (reading.ok) return reading.text;
  if (reading.failure === 'not-for-user')
    throw new VeilCryptoError('ERR_NO_KEY_FOR_USER', 'This message was not encrypted for this user');
  throw new VeilCryptoError('ERR_DECRYPT', 'Message could not be decrypted');
};

export const decryptMessage = (
  envelope: EncryptedEnvelope,
  userId: string,
  privateKey: CryptoKey,
): Promise<string> => decryptWithAnyKey(envelope, userId, [privateKey]);

/** For display: the text, or the seed contract's "[Failed to decrypt]" whatever went wrong (no keys included). */
export const decryptForDisplay = (
  envelope: EncryptedEnvelope,
  userId: string,
  privateKeys: readonly CryptoKey[],
): Promise<string> => decryptWithAnyKey(envelope, userId, privateKeys).catch(() => FAILED_TO_DECRYPT);
