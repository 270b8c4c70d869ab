import type { MessageView } from '@veil/contracts';
import type { AttachmentRef, CallRecord, MessageMention } from '@veil/crypto';
import type { Verification, ReadState } from '../keys/index.ts';

/**
 * A message as screens show it: the API's message plus its plaintext (never sent anywhere), or,
 * when it cannot be read here, the text that says why (`readState`).
 */
export interface DisplayMessage extends Omit<MessageView, 'replyTo'> {
  decryptedContent: string;
  readState: ReadState;
  replyTo: DisplayMessage | null;
  /** Each member's reaction as this reader sees it (an emoji), by user id; unreadable ones left out. */
  reactionTexts: Record<string, string>;
  /** Files sent with it (their keys were inside the ciphertext); absent: none. */
  attachments?: AttachmentRef[];
  /** Its sender forwarded it from another chat (said inside the ciphertext). */
  forwarded?: true;
  /** Members its text names (said inside the ciphertext, checked against the text); absent: none. */
  mentions?: MessageMention[];
  /** A call's entry in the timeline (said inside the ciphertext); its text says what it was. */
  call?: CallRecord;
  /**
   * The franking key sealed inside it (docs/crypto.md, "Message franking"): what a report of it
   * reveals with its text. Kept in memory only; absent on messages sent before franking.
   */
  frankingKey?: string;
  /** Its sender's signature and who it was sealed for, as checked here; absent: not checked. */
  verification?: Verification;
}
