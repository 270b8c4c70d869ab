import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The auth context. Streams:
 *  - `cred-<userId>`     credentials (password hash, changes)
 *  - `rtf-<familyId>`    one refresh-token family: each rotation appends the next token with the
 *                        family's expected version, so two concurrent uses of one token cannot both win.
 * Only the auth service consumes this context: password hashes never leave it.
 * Refresh tokens are stored as SHA-256 digests, never in clear.
 */
export const CredentialsRegistered = defineEvent(
  'CredentialsRegistered',
  z.object({ userId: idSchema, username: z.string(), passwordHash: z.string() }),
);
export const PasswordChanged = defineEvent(
  'PasswordChanged',
  z.object({ userId: idSchema, passwordHash: z.string() }),
);
export const RefreshTokenIssued = defineEvent(
  'RefreshTokenIssued',
  z.object({
    userId: idSchema,
    familyId: idSchema,
    tokenId: idSchema,
    tokenDigest: z.string(),
    expiresAt: z.iso.datetime(),
  }),
);
export const RefreshFamilyRevoked = defineEvent(
  'RefreshFamilyRevoked',
  z.object({
    userId: idSchema,
    familyId: idSchema,
    reason: z.enum(['reuse', 'logout', 'password-change', 'suspension']),
  }),
);

/**
 * A registration that never got its credentials (the process died between the username claim
 * and the password): appended to `cred-<userId>` with expected version 0, so either this or
 * CredentialsRegistered wins, never both. The username is then freed.
 */
export const CredentialsAbandoned = defineEvent(
  'CredentialsAbandoned',
  z.object({ userId: idSchema, username: z.string() }),
);

/**
 * An operator suspended the account (docs/decisions.md, "Operators and suspension"): its
 * sessions end and it cannot log in; its messages stay as they are. Appended to `cred-<userId>`.
 */
export const AccountSuspended = defineEvent(
  'AccountSuspended',
  z.object({ userId: idSchema, by: idSchema, reportId: idSchema.optional() }),
);
/** An operator lifted the account's suspension: it may log in again. */
export const AccountUnsuspended = defineEvent(
  'AccountUnsuspended',
  z.object({ userId: idSchema, by: idSchema }),
);

export const authEventSchema = z.discriminatedUnion('type', [
  CredentialsRegistered,
  CredentialsAbandoned,
  PasswordChanged,
  RefreshTokenIssued,
  RefreshFamilyRevoked,
  AccountSuspended,
  AccountUnsuspended,
]);
export type AuthEvent = z.infer<typeof authEventSchema>;

export const credentialsStreamId = (userId: string) => `cred-${userId}`;
export const refreshFamilyStreamId = (familyId: string) => `rtf-${familyId}`;
