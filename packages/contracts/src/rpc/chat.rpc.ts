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
  /** Returns the one-to-one chat of the pair, creating it on first use (race-safe). */
  ensureDirect: operation<{ chat: ChatView; position: number; created: boolean }>()(
    z.object({ userId: idSchema, otherUserId: idSchema }),
  ),
});
