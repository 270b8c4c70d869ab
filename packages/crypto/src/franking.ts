import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { utf8 } from './digest.ts';

/** The first line of what a franking tag is a MAC of; a new label is a new franking scheme. */
export const frankingLabel = 'veil franking 1';

/**
 * Message franking (as in Facebook Messenger): a fresh 32-byte key per message, sent only inside
 * the ciphertext (so only the chat's members hold it), and the tag HMAC-SHA256(key, label ‖ text),
 * which travels beside the ciphertext under the sender's signature. A member who reports the
 * message reveals the text and the key; the server recomputes the tag and compares it with the
 * signed one. The tag hides the text from the server (it lacks the key), and the reporter cannot
 * find another text or key that gives the same tag.
 */
export interface Franking {
  /** The franking key, base64 (32 bytes): sealed inside the message. */
  key: string;
  /** The tag, base64 (32 bytes): signed by the sender, stored with the ciphertext. */
  tag: string;
}

const frankedBytes = (text: string) => utf8(`${frankingLabel}\n${text}`);

/** The tag of `text` under a franking key (base64); throws when the key is not 32 bytes. */
export const frankingTagOf = async (key: string, text: string): Promise<string> => {
  const raw = base64ToBytes(key);
  if (raw.length !== 32) throw new TypeError('A franking key is 32 bytes');
  const hmac = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return bytesToBase64(new Uint8Array(await crypto.subtle.sign('HMAC', hmac, frankedBytes(text))));
};

/** A fresh franking key and the tag of `text` under it. */
export const frankText = async (text: string): Promise<Franking> => {
  const key = bytesToBase64(crypto.getRandomValues(new Uint8Array(32)));
  return { key, tag: await frankingTagOf(key, text) };
};

/**
 * Whether `text` and `key` give `tag` (compared in constant time over the MAC's bytes); anything
 * malformed is simply not a match.
 */
export const frankingHolds = async (text: string, key: string, tag: string): Promise<boolean> => {
  try {
    const expected = base64ToBytes(await frankingTagOf(key, text));
    const given = base64ToBytes(tag);
    if (given.length !== expected.length) return false;
    let difference = 0;
    for (let i = 0; i < given.length; i++) difference |= given[i]! ^ expected[i]!;
    return difference === 0;
  } catch {
    return false;
  }
};
