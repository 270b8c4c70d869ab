import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The chat context. Streams:
 *  - `chat-<chatId>`        the chat aggregate (created, members added, removed or gone, admins,
 *                           name and picture); the creator of a group is its first admin
 *  - `pair-<idA>-<idB>`     the one-to-one claim for a pair (ids sorted); its first event wins,
 *                           so two users messaging each other first at once get one chat.
 *  - `chatprefs-<userId>`   how one account keeps its chat list: archived and pinned chats.
 */
const hexHash = z.string().regex(/^[0-9a-f]{64}$/, 'Invalid hash');

/**
 * A group change as its maker signed it (`@veil/crypto`'s group chain, docs/crypto.md, "Signed
 * group state"): stored in the event it caused and served to the group's members, who verify it;
 * the service checks its shape, its signer and its place in the chain.
 */
export const signedGroupChangeSchema = z.object({
  groupId: idSchema,
  seq: z.number().int().positive(),
  kind: z.enum([
    'created',
    'snapshot',
    'members-added',
    'member-removed',
    'member-left',
    'admin-promoted',
    'renamed',
    'picture-changed',
    'timer-set',
  ]),
  memberIds: z.array(idSchema).max(1000),
  adminIds: z.array(idSchema).max(1000),
  name: z.string().max(1000).nullable(),
  pictureHash: hexHash.nullable(),
  timerSeconds: z.number().int().nonnegative().nullable(),
  prevHash: hexHash,
  at: z.iso.datetime(),
  signerId: idSchema,
  hash: hexHash,
  signature: z.string().max(200),
});
export type SignedGroupChangeData = z.infer<typeof signedGroupChangeSchema>;
const signed = { signedChange: signedGroupChangeSchema.optional() };

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
    ...signed,
  }),
);
export const ChatMembersAdded = defineEvent(
  'ChatMembersAdded',
  z.object({ chatId: idSchema, members: z.array(idSchema).min(1), addedBy: idSchema, ...signed }),
);
/** An admin removed a member from a group: they stop receiving it and later messages exclude them. */
export const ChatMemberRemoved = defineEvent(
  'ChatMemberRemoved',
  z.object({ chatId: idSchema, memberId: idSchema, removedBy: idSchema, ...signed }),
);
/**
 * A member left a group. When they were its last admin and others remain, `newAdmin` is the
 * member promoted in the same event (the longest-standing one), so a group always has an admin.
 */
export const ChatMemberLeft = defineEvent(
  'ChatMemberLeft',
  z.object({ chatId: idSchema, memberId: idSchema, newAdmin: idSchema.nullable(), ...signed }),
);
export const ChatAdminPromoted = defineEvent(
  'ChatAdminPromoted',
  z.object({ chatId: idSchema, memberId: idSchema, promotedBy: idSchema, ...signed }),
);
export const GroupRenamed = defineEvent(
  'GroupRenamed',
  z.object({ chatId: idSchema, name: z.string(), renamedBy: idSchema, ...signed }),
);
export const GroupPictureChanged = defineEvent(
  'GroupPictureChanged',
  z.object({ chatId: idSchema, pictureKey: z.string().nullable(), changedBy: idSchema, ...signed }),
);
/**
 * A member set the chat's disappearing-message timer (0: off). Messages sent after it expire
 * that many seconds after they were sent (docs/disappearing-messages.md).
 */
export const DisappearingTimerSet = defineEvent(
  'DisappearingTimerSet',
  z.object({ chatId: idSchema, seconds: z.number().int().nonnegative(), setBy: idSchema, ...signed }),
);
/**
 * An admin signed the state of a group that existed before group changes were signed, as it
 * was (a `snapshot`): the first change of its chain.
 */
export const GroupStateSigned = defineEvent(
  'GroupStateSigned',
  z.object({ chatId: idSchema, signedChange: signedGroupChangeSchema }),
);
export const DirectPairClaimed = defineEvent(
  'DirectPairClaimed',
  z.object({ chatId: idSchema, members: z.tuple([idSchema, idSchema]) }),
);

/** One account archived a chat (or took it back): its list only, synced across its browsers. */
export const ChatArchiveSet = defineEvent(
  'ChatArchiveSet',
  z.object({ userId: idSchema, chatId: idSchema, archived: z.boolean() }),
);
/** One account pinned a chat to the top of its list (or unpinned it). */
export const ChatPinSet = defineEvent(
  'ChatPinSet',
  z.object({ userId: idSchema, chatId: idSchema, pinned: z.boolean() }),
);

export const chatEventSchema = z.discriminatedUnion('type', [
  DirectChatCreated,
  GroupChatCreated,
  ChatMembersAdded,
  ChatMemberRemoved,
  ChatMemberLeft,
  ChatAdminPromoted,
  GroupRenamed,
  GroupPictureChanged,
  DisappearingTimerSet,
  GroupStateSigned,
  DirectPairClaimed,
  ChatArchiveSet,
  ChatPinSet,
]);
export type ChatEvent = z.infer<typeof chatEventSchema>;

export const chatStreamId = (chatId: string) => `chat-${chatId}`;
export const pairStreamId = (a: string, b: string) => {
  const [first, second] = [a, b].sort();
  return `pair-${first}-${second}`;
};
export const chatPrefsStreamId = (userId: string) => `chatprefs-${userId}`;
