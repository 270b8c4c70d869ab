import type { MessageEvent } from './events/message.events.ts';
import type { MessageView } from './http/schemas.ts';
import { messageViewOf, sentMessage } from './message-state.ts';

export type MessageSentEvent = Extract<MessageEvent, { type: 'MessageSent' }>;

/**
 * The API's MessageView for a message that was just persisted, built from its MessageSent event:
 * the one mapping the message service's send answer and the realtime fan-out share.
 * A fresh message has been seen by no one; `seq` is its position in the message log, the same
 * value the message service's history uses, so clients can dedupe and catch up with it.
 */
export const messageViewFromEvent = (
  event: MessageSentEvent,
  position: number,
  replyTo: MessageView | null,
): MessageView => messageViewOf(sentMessage(event, position), replyTo);
