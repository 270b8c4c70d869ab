import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The chat context. Streams:
 *  - `chat-<chatId>`        the chat aggregate (created, members added)
 *  - `pair-<idA>-<idB>`     the one-to-one claim for a pair (ids sorted); its first event wins,
 *                           so two users messaging each other first at once get one chat.
 */
export const DirectChatCreated = defineEvent(
  'DirectChatCreated',
  z.object({ chatId: idSchema, members: z.tuple([idSchema, idSchema]), createdBy: idSchema }),
);
export const GroupChatCreated = defineEvent(
  'GroupChatCreated',
  z.object({
    chatId: idSchema,
    name: z.string(),
    members: z.array(idSchema).min(2),
    createdBy: idSchema,
  }),
);
export const ChatMembersAdded = defineEvent(
  'ChatMembersAdded',
  z.object({ chatId: idSchema, members: z.array(idSchema).min(1), addedBy: idSchema }),
);
export const DirectPairClaimed = defineEvent(
  'DirectPairClaimed',
  z.object({ chatId: idSchema, members: z.tuple([idSchema, idSchema]) }),
);

export const chatEventSchema = z.discriminatedUnion('type', [
  DirectChatCreated,
  GroupChatCreated,
  ChatMembersAdded,
  DirectPairClaimed,
]);
export type ChatEvent = z.infer<typeof chatEventSchema>;

export const chatStreamId = (chatId: string) => `chat-${chatId}`;
export const pairStreamId = (a: string, b: string) => {
  const [first, second] = [a, b].sort();
  return `pair-${first}-${second}`;
};
