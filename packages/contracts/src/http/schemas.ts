import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { disappearingTimers, limits, usernamePattern, usernameRuleText } from '../limits.ts';

/** Shapes of the `/api/v1` surface (docs/api.md). Requests are validated here; responses typed here. */

/**
 * Padded base64 with no whitespace. `atob` (native, in browsers and Node) checks the alphabet
 * several times faster than a regex over kilobytes of ciphertext on every send; it forgives
 * whitespace and missing padding, which the length checks rule out.
 */
export const isPaddedBase64 = (s: string): boolean => {
  if (s.length % 4 !== 0) return false;
  const padding = s.endsWith('==') ? 2 : s.endsWith('=') ? 1 : 0;
  try {
    return atob(s).length === (s.length / 4) * 3 - padding;
  } catch {
    return false;
  }
};

/** Exactly `count` bytes as padded base64. */
export const base64OfBytes = (count: number, what: string) =>
  z
    .string({ error: `${what} is required` })
    .refine((s) => isPaddedBase64(s) && atob(s).length === count, `${what} must be ${count} bytes, base64`);

const base64 = (max: number, what: string) =>
  z
    .string({ error: `${what} is required` })
    .min(1, `${what} is required`)
    .max(max, `${what} is too large`)
    .refine(isPaddedBase64, `${what} must be base64`);

export const usernameSchema = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .min(limits.usernameMin, usernameRuleText)
  .max(limits.usernameMax, usernameRuleText)
  .regex(usernamePattern, usernameRuleText);

export const newPasswordSchema = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(limits.passwordMin, `Password must be at least ${limits.passwordMin} characters`)
  .max(limits.passwordMax, `Password must be at most ${limits.passwordMax} characters`);

export const publicKeySchema = base64(limits.publicKeyMaxChars, 'publicKey');
/** The account's identity signing key (ECDSA P-256, base64 SPKI); the user service checks the curve. */
export const signingKeySchema = base64(limits.signingKeyMaxChars, 'signingKey');

export const registerBodySchema = z.object({
  username: usernameSchema,
  password: newPasswordSchema,
  publicKey: publicKeySchema,
  /**
   * Optional: the identity signing key (ECDSA P-256, base64 SPKI); an older client sends none.
   * Given, it comes with `keyLogEntry`, the first key log entry signed with it.
   */
  signingKey: signingKeySchema.optional(),
  /** With `signingKey`: the `registered` entry of the key log, as JSON text (`parseKeyLogEntryText`). */
  keyLogEntry: z.string({ error: 'keyLogEntry must be JSON text' }).max(16_384).optional(),
  /** Optional: the encrypted backup of the new private key, as JSON text (`parseKeyBackupText`). */
  keyBackup: z.string({ error: 'keyBackup must be JSON text' }).optional(),
});

export const loginBodySchema = z.object({
  username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(200),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024),
});

export const refreshBodySchema = z.object({
  refreshtoken: z.string({ error: 'refreshtoken is required' }).min(1).max(2048),
});

export const updateProfileBodySchema = z.object({ username: usernameSchema.optional() });

/** A password change names the current password too: an unlocked, unattended browser is not enough. */
export const updatePasswordBodySchema = z.object({
  currentPassword: z
    .string({ error: 'currentPassword is required' })
    .min(1, 'currentPassword is required')
    .max(1024),
  password: newPasswordSchema,
});

export const createGroupBodySchema = z.object({
  groupName: z
    .string({ error: 'groupName is required' })
    .trim()
    .min(1, 'groupName is required')
    .max(limits.groupNameMax, `groupName must be at most ${limits.groupNameMax} characters`),
  participants: z
    .array(idSchema, { error: 'participants must be a list of user ids' })
    .min(1, 'At least one other member is required')
    .max(limits.groupMaxMembers - 1, 'Too many members'),
});

const ciphertext = base64(limits.messageCiphertextMaxChars, 'encryptedMessage');
const wrappedKey = (what: string) => base64(limits.wrappedKeyMaxChars, what);
const ivSchema = z
  .string({ error: 'iv is required' })
  .regex(/^[A-Za-z0-9+/]{16}$/, 'iv must be 12 bytes, base64');

/**
 * A sender's idempotency key for one message (the web app uses a random UUID): every retry of
 * that message carries the same key, over the socket or HTTP, and the server stores the message
 * once per sender and key (optional in the send bodies, docs/api.md).
 */
export const clientMessageIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, 'clientMessageId must be 8-64 letters, digits, - or _');

/** Blob ids of encrypted files sent with a message (complete uploads of the sender, in that chat). */
export const attachmentIdsSchema = z
  .array(idSchema)
  .max(limits.attachmentsPerMessageMax, `At most ${limits.attachmentsPerMessageMax} files per message`);
const sha256HexSchema = (what: string) =>
  z.string().regex(/^[0-9a-f]{64}$/, `${what} must be a SHA-256, lowercase hex`);

/**
 * A sender signature (docs/crypto.md, "Sender signatures"): ECDSA P-256 in WebCrypto's 64-byte
 * form, base64, and the sender's creation time it covers. The server checks its shape only: it
 * cannot verify what it cannot read, and browsers verify it against the sender's key log.
 *
 * Version 2 (`version: 2`) also carries what it covers beyond version 1: the commitment to the
 * message key (absent on what seals nothing: a deletion, a reaction's removal), the key-log head
 * hash of the sender and of each member it was sealed for as the sender saw them, the sender's
 * counter in the chat and its previous message there (`null`: none), and for an edit the version
 * it replaces. Without `version`, none of them may be there.
 *
 * Version 3 (`version: 3`) is version 2 with the message's franking tag (`franking`, 32 bytes,
 * base64: docs/crypto.md, "Message franking"), which a report of the message is checked against.
 * Only a message carries one; actions keep version 2.
 */
export const messageSignatureSchema = z
  .strictObject({
    value: z
      .string({ error: 'signature.value is required' })
      .refine((s) => isPaddedBase64(s) && atob(s).length === 64, 'signature.value must be 64 bytes, base64'),
    signedAt: z.iso.datetime({ error: 'signature.signedAt must be an ISO 8601 time' }),
    version: z
      .union([z.literal(2), z.literal(3)], { error: 'signature.version must be 2 or 3 when given' })
      .optional(),
    keyCommitment: z
      .string()
      .refine(
        (s) => isPaddedBase64(s) && atob(s).length === 32,
        'signature.keyCommitment must be 32 bytes, base64',
      )
      .optional(),
    keyLogHeads: z
      .record(idSchema, sha256HexSchema('signature.keyLogHeads entry'))
      .refine((heads) => Object.keys(heads).length <= limits.groupMaxMembers, 'Too many key-log heads')
      .optional(),
    counter: z
      .number()
      .int('signature.counter must be a whole number')
      .min(1, 'signature.counter starts at 1')
      .max(Number.MAX_SAFE_INTEGER)
      .optional(),
    prev: clientMessageIdSchema.nullable().optional(),
    replaces: z
      .union([clientMessageIdSchema, sha256HexSchema('signature.replaces')])
      .nullable()
      .optional(),
    franking: z
      .string()
      .refine(
        (s) => isPaddedBase64(s) && atob(s).length === 32,
        'signature.franking must be 32 bytes, base64',
      )
      .optional(),
  })
  .superRefine((signature, ctx) => {
    if ((signature.version === 3) !== (signature.franking !== undefined))
      ctx.addIssue({
        code: 'custom',
        message: 'signature.franking goes with signature.version 3, and only with it',
      });
    const v2Fields = (['keyCommitment', 'keyLogHeads', 'counter', 'prev', 'replaces'] as const).filter(
      (field) => signature[field] !== undefined,
    );
    if (signature.version === undefined) {
      if (v2Fields.length)
        ctx.addIssue({ code: 'custom', message: `signature.${v2Fields[0]} needs signature.version 2` });
      return;
    }
    for (const field of ['keyLogHeads', 'counter', 'prev'] as const)
      if (signature[field] === undefined)
        ctx.addIssue({ code: 'custom', message: `signature.${field} is required from version 2 on` });
  });
export type MessageSignature = z.infer<typeof messageSignatureSchema>;

/**
 * A message's key map as its signature covers it, for a reader served only its own wrapped key
 * (docs/crypto.md, "Previews and pushes"): the member ids, sorted, and the SHA-256 (lowercase
 * hex) of the sorted `id:wrappedKey` lines. Public data: the server computes it from the map.
 */
export const keyMapSummarySchema = z.object({
  members: z.array(idSchema),
  digest: z.string().regex(/^[0-9a-f]{64}$/, 'digest must be a SHA-256, hex'),
});
export type KeyMapSummary = z.infer<typeof keyMapSummarySchema>;

export const sendIndividualBodySchema = z.object({
  encryptedMessage: ciphertext,
  iv: ivSchema,
  encryptedAESKeyForRecipient: wrappedKey('encryptedAESKeyForRecipient'),
  encryptedAESKeyForSender: wrappedKey('encryptedAESKeyForSender'),
  replyTo: idSchema.nullish(),
  clientMessageId: clientMessageIdSchema.optional(),
  attachments: attachmentIdsSchema.optional(),
  signature: messageSignatureSchema.optional(),
});

/** Groups: the message plus `encryptedKeys`, which must name exactly the current members. */
export const sendGroupBodySchema = z.object({
  encryptedMessage: ciphertext,
  iv: ivSchema,
  encryptedAESKeyForRecipient: wrappedKey('encryptedAESKeyForRecipient').optional(),
  encryptedAESKeyForSender: wrappedKey('encryptedAESKeyForSender').optional(),
  encryptedKeys: z
    .record(idSchema, wrappedKey('encryptedKeys entry'), { error: 'encryptedKeys is required' })
    .refine((m) => Object.keys(m).length <= limits.groupMaxMembers, 'Too many keys'),
  replyTo: idSchema.nullish(),
  clientMessageId: clientMessageIdSchema.optional(),
  attachments: attachmentIdsSchema.optional(),
  signature: messageSignatureSchema.optional(),
});

/**
 * An edit: the new text, encrypted for the chat's current members like a new message, and the
 * sender's signature over it (docs/crypto.md, "Sender signatures": an action of kind `edit`).
 */
export const editMessageBodySchema = z.object({
  encryptedMessage: ciphertext,
  iv: ivSchema,
  encryptedKeys: sendGroupBodySchema.shape.encryptedKeys,
  signature: messageSignatureSchema.optional(),
});

/** `DELETE /message/:messageId?for=everyone|me`. */
export const deleteMessageQuerySchema = z.object({
  for: z.enum(['everyone', 'me'], { error: 'for must be "everyone" or "me"' }),
});

/**
 * The optional body of a deletion for everyone: the sender's signature over it (docs/crypto.md,
 * "Sender signatures": an action of kind `delete`).
 */
export const deleteMessageBodySchema = z.object({ signature: messageSignatureSchema.optional() });

/**
 * A reaction: the emoji encrypted like a message, for every current member, and the member's
 * signature over it (docs/crypto.md, "Sender signatures": an action of kind `reaction`).
 */
export const reactionBodySchema = z.object({
  encryptedReaction: base64(limits.reactionCiphertextMaxChars, 'encryptedReaction'),
  iv: ivSchema,
  encryptedKeys: sendGroupBodySchema.shape.encryptedKeys,
  signature: messageSignatureSchema.optional(),
});

/**
 * Copies of the caller's own message keys, re-wrapped for their current key by a browser that
 * still holds the key they were sealed for (after a key reset).
 */
export const rewrapBodySchema = z.object({
  copies: z
    .array(z.object({ messageId: idSchema, encryptedKey: wrappedKey('encryptedKey') }), {
      error: 'copies must be a list of { messageId, encryptedKey }',
    })
    .min(1, 'Send at least one copy')
    .max(limits.rewrapBatchMax, `At most ${limits.rewrapBatchMax} copies at a time`),
});

export const addMembersBodySchema = z.object({
  members: z
    .array(idSchema, { error: 'members must be a list of user ids' })
    .min(1, 'Name at least one member to add')
    .max(limits.groupMaxMembers, 'Too many members'),
});

export const renameGroupBodySchema = createGroupBodySchema.pick({ groupName: true });

export const disappearingBodySchema = z.object({
  seconds: z
    .number({ error: 'seconds is required' })
    .refine((value) => (disappearingTimers as readonly number[]).includes(value), {
      error: `seconds must be one of ${disappearingTimers.join(', ')}`,
    }),
});

export const promoteAdminBodySchema = z.object({ userId: idSchema });

export const historyQuerySchema = z.object({
  before: idSchema.optional(),
  after: idSchema.optional(),
  limit: z.coerce.number().int().min(1).max(limits.historyPageMax).optional(),
});

/**
 * What an account shares. Read receipts are reciprocal: whoever does not send them sees no one's.
 * Typing shows to the chat's other members or to no one; online state to contacts or to no one.
 */
export const privacySchema = z.object({
  readReceipts: z.boolean({ error: 'readReceipts must be true or false' }),
  typing: z.boolean({ error: 'typing must be true or false' }),
  onlineVisibleTo: z.enum(['contacts', 'nobody'], {
    error: 'onlineVisibleTo must be "contacts" or "nobody"',
  }),
});
export type Privacy = z.infer<typeof privacySchema>;

/** Until an account changes them: everything shared (docs/api.md, "Privacy"). */
export const defaultPrivacy: Privacy = { readReceipts: true, typing: true, onlineVisibleTo: 'contacts' };

/** Public user: never carries hashes, tokens or internal fields. */
export const publicUserSchema = z.object({
  _id: idSchema,
  username: z.string(),
  profilePicture: z.string().nullable(),
});
export type PublicUser = z.infer<typeof publicUserSchema>;

/** A change to a group, shown as a system line in the chat. People are named as they are now. */
export const groupNoticeSchema = z.object({
  kind: z.enum(['created', 'added', 'removed', 'left', 'promoted', 'renamed', 'picture', 'timer']),
  by: publicUserSchema,
  /** Who was added, removed, promoted, or left (and, after a last admin left, who was promoted). */
  members: z.array(publicUserSchema),
  /** The new name, for `created` and `renamed`. */
  name: z.string().optional(),
  /** The new disappearing-message timer in seconds (0: off), for `timer`. */
  seconds: z.number().optional(),
  at: z.string(),
});
export type GroupNotice = z.infer<typeof groupNoticeSchema>;

export const chatViewSchema = z.object({
  _id: idSchema,
  isGroupChat: z.boolean(),
  chatName: z.string(),
  participants: z.array(publicUserSchema),
  createdBy: idSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Groups: who may add, remove and promote members, rename the group and set its picture. */
  admins: z.array(idSchema).optional(),
  /** Groups: the picture's URL path, or null. */
  groupPicture: z.string().nullable().optional(),
  /** What changed, oldest first (the newest ones only): group changes and timer changes. */
  notices: z.array(groupNoticeSchema).optional(),
  /** The disappearing-message timer in seconds; absent or 0: off. */
  disappearingSeconds: z.number().optional(),
  /**
   * Groups: when an admin signed the group's state as it was (a group made before changes were
   * signed, docs/crypto.md); absent until then. The signature itself is in the group's changes.
   */
  stateSignedAt: z.string().optional(),
  /**
   * Groups the viewer was removed from: who removed them and when. The rest of the view is the
   * group as it was then; the viewer reads the history up to that moment and sends nothing.
   */
  removedFromGroup: z.object({ by: publicUserSchema, at: z.string() }).optional(),
  /** When the viewer archived it; absent when not archived. */
  archivedAt: z.string().optional(),
  /** Archived, and no message since: out of the viewer's list (docs/api.md, "Archived and pinned chats"). */
  archived: z.boolean().optional(),
  /** When the viewer pinned it; absent when not pinned. */
  pinnedAt: z.string().optional(),
});
export type ChatView = z.infer<typeof chatViewSchema>;

export interface MessageView {
  _id: string;
  chat: string;
  sender: { _id: string };
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  replyTo: MessageView | null;
  seenBy: Record<string, true>;
  createdAt: string;
  /** Position in the chat's history; clients page and catch up with it. */
  seq: number;
  /** The sender's signature, when the message was sent with one. */
  signature?: MessageSignature;
  /** The sender's idempotency key, when it sent one: a signature covers it, so readers need it. */
  clientMessageId?: string;
  /** When the sender last edited it; absent when never edited. */
  editedAt?: string;
  /** The sender's signature over the last edit (its text replaced the signed original's). */
  editSignature?: MessageSignature;
  /**
   * What the signature covers of the key map, present when `encryptedKeys` holds only the
   * reader's own key (the chat list's newest message): the reader checks the signature against
   * it instead of the map it was not served.
   */
  keyMap?: KeyMapSummary;
  /** Deleted for everyone: a tombstone, with no ciphertext and no keys. */
  deleted?: true;
  /** The sender's signature over the deletion, when it was signed. */
  deleteSignature?: MessageSignature;
  /** Each member's reaction, by user id, encrypted like a message; absent when there is none. */
  reactions?: Record<string, SealedReaction>;
  /** When it disappears (the chat's timer when it was sent); absent: it stays. */
  expiresAt?: string;
  /**
   * Members' own copies of the message key re-wrapped for their current key after a key reset, by
   * user id; `encryptedKeys` stays as sent (and signed).
   */
  rewrappedKeys?: Record<string, string>;
}

export interface SealedReaction {
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  /** The member's signature over the reaction, when signed. */
  signature?: MessageSignature;
}

/**
 * The caller's unread state of one chat: how many others' messages came after the newest one the
 * caller has seen or sent, and the chat's newest message (its key map holds the caller's key
 * only, with `keyMap` the summary its signature covers) for the chat list's preview, which the
 * browser verifies and decrypts.
 */
export interface ChatUnread {
  chatId: string;
  unread: number;
  lastMessage: MessageView | null;
}

/** Profile pictures are served by the API gateway under a stable URL derived from the blob key. */
export const mediaPathPrefix = '/api/v1/media/';
export const mediaUrl = (pictureKey: string | null): string | null =>
  pictureKey ? `${mediaPathPrefix}${pictureKey}` : null;

/** Starting an encrypted upload: its chat and its encrypted size (docs/attachments.md). */
export const startUploadBodySchema = z.object({
  chatId: idSchema,
  size: z.number({ error: 'size is required' }).int('size must be a whole number of bytes').nonnegative(),
});
