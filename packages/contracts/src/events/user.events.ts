import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The user context. Two kinds of streams:
 *  - `user-<userId>`       the profile aggregate
 *  - `name-<lowercased>`   a username claim; appended with an expected sequence, so two
 *                          registrations or renames racing for one name cannot both win.
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

export const userEventSchema = z.discriminatedUnion('type', [
  UsernameClaimed,
  UsernameReleased,
  UserRegistered,
  UserRenamed,
  ProfilePictureChanged,
  UserRegistrationCancelled,
]);
export type UserEvent = z.infer<typeof userEventSchema>;

export const userStreamId = (userId: string) => `user-${userId}`;
export const usernameStreamId = (username: string) => `name-${username.toLowerCase()}`;
