import { z } from 'zod';
import { keyBackupSchema } from '../http/key-backup.schemas.ts';
import { keyLogEntrySchema } from '../http/key-log.schemas.ts';
import { privacySchema } from '../http/schemas.ts';
import { defineEvent, idSchema } from './event.ts';

/**
 * The user context. Three kinds of streams:
 *  - `user-<userId>`       the profile (decided by the user service's `profile.decider.ts`)
 *  - `name-<lowercased>`   a username claim; appended with an expected sequence, so two
 *                          registrations or renames racing for one name cannot both win.
 *  - `keybackup-<userId>`  the account's encrypted key backup; its last event is the current one.
 *  - `keylog-<userId>`     the account's key-change log: one KeysPublished per entry, appended
 *                          with the expected sequence, so entries never fork or change.
 *  - `blocks-<userId>`     the users this account blocked; private to its owner.
 */
export const UsernameClaimed = defineEvent(
  'UsernameClaimed',
  z.object({ userId: idSchema, username: z.string() }),
);
export const UsernameReleased = defineEvent('UsernameReleased', z.object({ userId: idSchema }));

export const UserRegistered = defineEvent(
  'UserRegistered',
  z.object({
    userId: idSchema,
    username: z.string(),
    publicKey: z.string(),
    pictureKey: z.string().nullable(),
  }),
);
export const UserRenamed = defineEvent(
  'UserRenamed',
  z.object({ userId: idSchema, username: z.string(), previousUsername: z.string() }),
);
export const ProfilePictureChanged = defineEvent(
  'ProfilePictureChanged',
  z.object({ userId: idSchema, pictureKey: z.string().nullable() }),
);
export const UserRegistrationCancelled = defineEvent(
  'UserRegistrationCancelled',
  z.object({ userId: idSchema }),
);

/** The owner stored (or replaced) the encrypted backup of their private key. Opaque to the server. */
export const KeyBackupStored = defineEvent(
  'KeyBackupStored',
  z.object({ userId: idSchema, backup: keyBackupSchema }),
);

/** The account published public keys (at registration, a first signing key, a reset): one key-log entry. */
export const KeysPublished = defineEvent(
  'KeysPublished',
  z.object({ userId: idSchema, entry: keyLogEntrySchema }),
);

/** The owner changed what their account shares (read receipts, typing, online state). */
export const PrivacyChanged = defineEvent(
  'PrivacyChanged',
  z.object({ userId: idSchema, privacy: privacySchema }),
);

/** The owner blocked another user: no one-to-one messages or new chats either way, no group adds. */
export const UserBlocked = defineEvent(
  'UserBlocked',
  z.object({ userId: idSchema, blockedUserId: idSchema }),
);
export const UserUnblocked = defineEvent(
  'UserUnblocked',
  z.object({ userId: idSchema, blockedUserId: idSchema }),
);

/** An account's block list after one of its block events: oldest first, each id once. */
export const blockListAfter = (
  list: readonly string[],
  event: { type: 'UserBlocked' | 'UserUnblocked'; data: { blockedUserId: string } },
): string[] => {
  const others = list.filter((id) => id !== event.data.blockedUserId);
  return event.type === 'UserBlocked' ? [...others, event.data.blockedUserId] : others;
};

export const userEventSchema = z.discriminatedUnion('type', [
  UsernameClaimed,
  UsernameReleased,
  UserRegistered,
  UserRenamed,
  ProfilePictureChanged,
  UserRegistrationCancelled,
  KeyBackupStored,
  KeysPublished,
  PrivacyChanged,
  UserBlocked,
  UserUnblocked,
]);
export type UserEvent = z.infer<typeof userEventSchema>;

export const userStreamId = (userId: string) => `user-${userId}`;
export const usernameStreamId = (username: string) => `name-${username.toLowerCase()}`;
export const keyBackupStreamId = (userId: string) => `keybackup-${userId}`;
export const keyLogStreamId = (userId: string) => `keylog-${userId}`;
export const blocksStreamId = (userId: string) => `blocks-${userId}`;
