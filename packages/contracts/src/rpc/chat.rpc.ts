import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import type { ChatView } from '../http/schemas.ts';
import { defineRpcService, operation } from './rpc.ts';

/** The chat service: owns chats and their membership. */
export const chatRpc = defineRpcService('chat', {
  listForUser: operation<{ chats: ChatView[] }>()(z.object({ userId: idSchema })),
  getForUser: operation<{ chat: ChatView }>()(z.object({ userId: idSchema, chatId: idSchema })),
  createGroup: operation<{ chat: ChatView; position: number }>()(
    z.object({ userId: idSchema, name: z.string(), memberIds: z.array(idSchema) }),
  ),
  /**
   * A change to a group by `userId`: admins add, remove and promote members, rename the group
   * and set its picture; any member leaves; any member of any chat sets its disappearing timer. Answers with the chat as `userId` now sees it
   * (`chat` is null after leaving or for a removed user).
   */
  changeGroup: operation<{ chat: ChatView | null; position: number; replacedPictureKey?: string }>()(
    z.object({
      userId: idSchema,
      chatId: idSchema,
      change: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('add'), memberIds: z.array(idSchema).min(1) }),
        z.object({ kind: z.literal('remove'), memberId: idSchema }),
        z.object({ kind: z.literal('promote'), memberId: idSchema }),
        z.object({ kind: z.literal('rename'), name: z.string() }),
        z.object({ kind: z.literal('picture'), pictureKey: z.string().nullable() }),
        z.object({ kind: z.literal('leave') }),
        z.object({ kind: z.literal('timer'), seconds: z.number().int().nonnegative() }),
      ]),
    }),
  ),
  /** Returns the one-to-one chat of the pair, creating it on first use (race-safe). */
  ensureDirect: operation<{ chat: ChatView; position: number; created: boolean }>()(
    z.object({ userId: idSchema, otherUserId: idSchema }),
  ),
});
