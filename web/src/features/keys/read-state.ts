import { FAILED_TO_DECRYPT, type MessageReading } from '@veil/crypto';
import { signatureTexts } from './signature-texts.ts';

/**
 * Why a message cannot be read here, in words the reader can act on, instead of one
 * "[Failed to decrypt]" for everything:
 *  - `no-key-here`: this browser holds no key the message was sealed for, and the account's
 *    current key is not here either: restoring it (from the backup) would make it readable.
 *  - `key-reset`: sealed for a key the account had before its current one was published.
 *  - `unreadable`: damaged, or not meant for this reader: the seed contract's "[Failed to decrypt]".
 *  - `unverified`: its sender's signature does not hold (`message-verification.ts`): never shown
 *    as its sender's text, whether it decrypts or not.
 */
export type ReadState = 'read' | 'no-key-here' | 'key-reset' | 'unreadable' | 'unverified';

export const noKeyHereText = 'This browser has no key for your account yet: restore it';
export const keyResetText = 'Sent before your key was reset';

export const readStateTexts: Record<Exclude<ReadState, 'read'>, string> = {
  'no-key-here': noKeyHereText,
  'key-reset': keyResetText,
  unreadable: FAILED_TO_DECRYPT,
  unverified: signatureTexts.unverifiedLead,
};

/** The account's current key as the server publishes it. */
export interface PublishedKey {
  publicKey: string;
  publishedAt: string;
}

/**
 * Classifies a failed reading. `heldKeys` are the public keys of the private keys this browser
 * holds for the account; `published` is null when it could not be fetched, and then nothing is
 * claimed beyond what this browser knows by itself.
 */
export const unreadableState = (
  failure: Extract<MessageReading, { ok: false }>['failure'],
  heldKeys: readonly string[],
  published: PublishedKey | null,
  sentAt: string,
): Exclude<ReadState, 'read' | 'unverified'> => {
  if (failure !== 'no-key-fits') return 'unreadable';
  // Sent before the current key was published (a reset): restoring the current key cannot open it.
  if (published && Date.parse(sentAt) < Date.parse(published.publishedAt)) return 'key-reset';
  if (heldKeys.length === 0) return 'no-key-here';
  if (!published) return 'unreadable';
  // A key that this browser holds fails on a message sealed after it was published: damaged.
  return heldKeys.includes(published.publicKey) ? 'unreadable' : 'no-key-here';
};
