import { z } from 'zod';
import { signedGroupChangeSchema } from '../events/chat.events.ts';
import { idSchema } from '../events/event.ts';
import type { GroupChangeEntry } from '../http/group-changes.schemas.ts';
import type { ChatView } from '../http/schemas.ts';
import { defineRpcService, operation } from './rpc.ts';

/** The chat service: owns chats and their membership. */
export const chatRpc = defineRpcService('chat', {
  listForUser: operation<{ chats: ChatView[] }>()(z.object({ userId: idSchema })),
  getForUser: operation<{ chat: ChatView }>()(z.object({ userId: idSchema, chatId: idSchema })),
  /**
   * With `signedChange` (the creator's signed `created` change) the group takes the id it names,
   * so the creator can sign it before it exists; without, the service picks one and the group's
   * state is not signed.
   */
  createGroup: operation<{ chat: ChatView; position: number }>()(
    z.object({
      userId: idSchema,
      name: z.string(),
      memberIds: z.array(idSchema),
      signedChange: signedGroupChangeSchema.optional(),
    }),
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
      /** The caller's signature over the change; required once the group's state is signed. */
      signedChange: signedGroupChangeSchema.optional(),
    }),
  ),
  /** A group's changes, oldest first, each with the signed change it carried (members only). */
  groupChanges: operation<{ changes: GroupChangeEntry[] }>()(
    z.object({ userId: idSchema, chatId: idSchema }),
  ),
  /** An admin signs the state of a group whose state is not signed yet (a `snapshot`). */
  signGroupState: operation<{ position: number }>()(
    z.object({ userId: idSchema, chatId: idSchema, signedChange: signedGroupChangeSchema }),
  ),
  /** Archives or pins a chat in the caller's own list (either field, or both). */
  setChatPrefs: operation<{ chat: ChatView }>()(
    z.object({
      userId: idSchema,
      chatId: idSchema,
      archived: z.boolean().optional(),
      pinned: z.boolean().optional(),
    }),
  ),
  /** Resolves once this service has applied the user log up to `position` (a block takes effect). */
  userApplied: operation<Record<string, never>>()(z.object({ position: z.number().int().nonnegative() })),
  /** Returns the one-to-one chat of the pair, creating it on first use (race-safe). */
  ensureDirect: operation<{ chat: ChatView; position: number; created: boolean }>()(
    z.object({ userId: idSchema, otherUserId: idSchema }),
  ),
});
