import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { sha256Hex, utf8 } from './digest.ts';
import { importSigningPublicKeySpkiBase64 } from './signing-key.ts';

/**
 * Sender signatures: a message signed with the sender's identity key over a canonical encoding of
 * everything that makes it this message in this chat, so a server cannot move it to another chat,
 * another sender, another reply, another time or another set of readers without the signature
 * failing. The signature is ECDSA P-256 with SHA-256 in WebCrypto's 64-byte (r ‖ s) form, base64.
 */
export interface SignedMessage {
  /** The message's ciphertext and iv, base64, as sent. */
  ciphertext: string;
  iv: string;
  /** The chat: a group's id, or `directChatRef` of the two people for a one-to-one chat. */
  chat: string;
  senderId: string;
  clientMessageId: string;
  /** The id of the message replied to, or null. */
  replyTo: string | null;
  /** When the sender made it (ISO 8601), as the sender's clock says. */
  createdAt: string;
  /** The wrapped message key of every member it was sealed for. */
  encryptedKeys: Readonly<Record<string, string>>;
}

/**
 * A one-to-one chat named by its two people (sorted), since the first message is signed before
 * the server has given the chat an id.
 */
export const directChatRef = (userA: string, userB: string): string =>
  `direct:${[userA, userB].sort().join(':')}`;

const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * One field a line, in a fixed order; the member ids sorted, and a SHA-256 over the sorted
 * `id:wrappedKey` lines, so the encoding does not depend on the order of a JSON object's keys.
 * No field may contain a line break (ids and base64 cannot; anything else is refused).
 */
export const messageSignatureBytes = async (message: SignedMessage): Promise<Uint8Array<ArrayBuffer>> => {
  const members = Object.keys(message.encryptedKeys).sort();
  const wrappedKeys = await sha256Hex(
    utf8(members.map((id) => `${id}:${message.encryptedKeys[id]}`).join('\n')),
  );
  const fields = [
    'veil message signature 1',
    message.ciphertext,
    message.iv,
    message.chat,
    message.senderId,
    message.clientMessageId,
    message.replyTo ?? '-',
    message.createdAt,
    members.join(','),
    wrappedKeys,
  ];
  if (fields.some((field) => typeof field !== 'string' || /[\r\n]/.test(field)))
    throw new TypeError('A signed message field is missing or holds a line break');
  return utf8(fields.join('\n'));
};

/** Signs a message with the sender's (non-extractable) signing key; resolves the base64 signature. */
export const signMessage = async (signingKey: CryptoKey, message: SignedMessage): Promise<string> =>
  bytesToBase64(
    new Uint8Array(await crypto.subtle.sign(ecdsaSha256, signingKey, await messageSignatureBytes(message))),
  );

/**
 * Whether `signature` is the holder of `signingPublicKey` (base64 SPKI) signing exactly this
 * message. Anything malformed (the key, the signature, a field) is simply not a valid signature.
 */
export const verifyMessageSignature = async (
  signingPublicKey: string,
  message: SignedMessage,
  signature: string,
): Promise<boolean> => {
  try {
    const key = await importSigningPublicKeySpkiBase64(signingPublicKey);
    const bytes = base64ToBytes(signature);
    if (bytes.length !== 64) return false;
    return await crypto.subtle.verify(ecdsaSha256, key, bytes, await messageSignatureBytes(message));
  } catch {
    return false;
  }
};
