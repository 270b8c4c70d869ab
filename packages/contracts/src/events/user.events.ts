import { z } from 'zod';
import { keyBackupSchema } from '../http/key-backup.schemas.ts';
import { privacySchema } from '../http/schemas.ts';
import { defineEvent, idSchema } from './event.ts';

/**
 * The user context. Three kinds of streams:
 *  - `user-<userId>`       the profile aggregate
 *  - `name-<lowercased>`   a username claim; appended with an expected sequence, so two
 *                          registrations or renames racing for one name cannot both win.
 *  - `keybackup-<userId>`  the account's encrypted key backup; its last event is the current one.
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

/** The owner changed what their account shares (read receipts, typing, online state). */
export const PrivacyChanged = defineEvent(
  'PrivacyChanged',
  z.object({ userId: idSchema, privacy: privacySchema }),
);

export const userEventSchema = z.discriminatedUnion('type', [
  UsernameClaimed,
  UsernameReleased,
  UserRegistered,
  UserRenamed,
  ProfilePictureChanged,
  UserRegistrationCancelled,
  KeyBackupStored,
  PrivacyChanged,
]);
export type UserEvent = z.infer<typeof userEventSchema>;

export const userStreamId = (userId: string) => `user-${userId}`;
export const usernameStreamId = (username: string) => `name-${username.toLowerCase()}`;
export const keyBackupStreamId = (userId: string) => `keybackup-${userId}`;
