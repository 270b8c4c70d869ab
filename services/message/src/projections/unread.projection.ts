import type { MessageEvent } from '@veil/contracts';
import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';
import {
  afterHidden,
  afterMessage,
  afterSeen,
  emptyUnreadState,
  type UnreadState,
} from '../domain/unread.ts';

/** One member's unread state in one chat. */
export interface UnreadDoc extends UnreadState {
  _id: string;
  userId: string;
  chatId: string;
}

export type UnreadReadModels = { unread: Collection<UnreadDoc> };

export const openUnreadReadModels = async (readStore: ReadStore): Promise<UnreadReadModels> => ({
  unread: await readStore.collection<UnreadDoc>('message_unread', [{ fields: { userId: 1 } }]),
});

const unreadId = (userId: string, chatId: string) => `${userId}:${chatId}`;

/**
 * Unread counts per member and chat, from the message context alone. The members a message
 * reaches are the keys of its key map (the send rules make it exactly the chat's members), so
 * this read model needs no membership of its own. A projection of its own, with its own
 * checkpoint: it is built from the whole log the first time a Veil that has it starts.
 */
export const unreadProjection = (models: UnreadReadModels): ProjectionDefinition<UnreadReadModels> => ({
  name: 'message_unread',
  contexts: ['message'],
  models,
  async handle({ event: raw, position }, { unread }) {
    const event = raw as MessageEvent;
    const stateOf = async (userId: string, chatId: string): Promise<UnreadDoc> =>
      (await unread.get(unreadId(userId, chatId))) ?? {
        _id: unreadId(userId, chatId),
        userId,
        chatId,
        ...emptyUnreadState,
      };
    switch (event.type) {
      case 'MessageSent': {
        const { chatId, messageId, senderId, encryptedKeys } = event.data;
        for (const member of Object.keys(encryptedKeys)) {
          const doc = await stateOf(member, chatId);
          const next = afterMessage(doc, { messageId, seq: position, fromThisMember: member === senderId });
          if (next !== doc) await unread.put({ ...doc, ...next });
        }
        return;
      }
      case 'MessageSeen': {
        const doc = await stateOf(event.data.userId, event.data.chatId);
        const next = afterSeen(doc, event.data.messageId);
        if (next !== doc) await unread.put({ ...doc, ...next });
        return;
      }
      case 'MessageHidden': {
        // Deleted for this member only: it no longer waits to be read.
        const doc = await stateOf(event.data.userId, event.data.chatId);
        const next = afterHidden(doc, event.data.messageId);
        if (next !== doc) await unread.put({ ...doc, ...next });
        return;
      }
      // An edit or a reaction changes no count. A message deleted for everyone stays counted
      // until the chat is read (the event names no members, and this read model keeps none);
      // so does an expired one.
      case 'MessageEdited':
      case 'MessageDeleted':
      case 'MessageExpired':
      case 'ReactionSet':
      case 'ReactionRemoved':
      case 'MessageKeyRewrapped':
        return;
      default: {
        // Every event of the context followed is named above: a new one must be decided on.
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
});
