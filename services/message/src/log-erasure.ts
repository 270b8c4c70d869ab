import { contentEventTypes, messageStreamId } from '@veil/contracts';
import type { ContextEventStore } from '@veil/ports';

/** What erasing needs of the log. */
export type ContentLog = Pick<ContextEventStore, 'readStream' | 'erase'>;

/**
 * Erases every event of a message that carries its ciphertext or a reaction's (MessageSent,
 * MessageEdited, ReactionSet) from the message log, keeping the ones that carry none (seen,
 * hidden, deleted). Safe to repeat: what is already erased is no longer in the stream.
 */
export const eraseMessageContent = async (log: ContentLog, messageId: string): Promise<void> => {
  const { events } = await log.readStream('message', messageStreamId(messageId));
  const positions = events
    .filter(({ event }) => contentEventTypes.includes(event.type))
    .map(({ position }) => position);
  if (positions.length) await log.erase('message', positions);
};
