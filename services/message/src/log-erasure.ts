import { contentEventTypes, messageStreamId } from '@veil/contracts';
import type { ContextEventStore } from '@veil/ports';

/** What erasing needs of the log. */
export type ContentLog = Pick<ContextEventStore, 'readStream' | 'erase'>;

/**
 * Erases every event of a message that carries its ciphertext or a reaction's (MessageSent,
 * MessageEdited, ReactionSet, MessageKeyRewrapped) from the message log, keeping the ones that
 * carry none (seen, hidden, deleted). An expired message loses its deletion too: its tombstone
 * has gone with it, and the deletion would otherwise keep finding it in the log's indexes
 * (docs/storage.md, "The message timeline"). Safe to repeat: what is already erased is no longer
 * in the stream.
 */
export const eraseMessageContent = async (
  log: ContentLog,
  messageId: string,
  options: { expired?: boolean } = {},
): Promise<void> => {
  const { events } = await log.readStream('message', messageStreamId(messageId));
  const erased = (type: string) =>
    contentEventTypes.includes(type) || (options.expired === true && type === 'MessageDeleted');
  const positions = events.filter(({ event }) => erased(event.type)).map(({ position }) => position);
  if (positions.length) await log.erase('message', positions);
};
