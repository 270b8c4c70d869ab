import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The auth context: credentials and refresh-token families, stream `cred-<userId>`.
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
export const LoginNameChanged = defineEvent(
  'LoginNameChanged',
  z.object({ userId: idSchema, username: z.string() }),
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
export const RefreshTokenRotated = defineEvent(
  'RefreshTokenRotated',
  z.object({ userId: idSchema, familyId: idSchema, usedTokenId: idSchema }),
);
export const RefreshFamilyRevoked = defineEvent(
  'RefreshFamilyRevoked',
  z.object({
    userId: idSchema,
    familyId: idSchema,
    reason: z.enum(['reuse', 'logout', 'password-change']),
  }),
);

export const authEventSchema = z.discriminatedUnion('type', [
  CredentialsRegistered,
  PasswordChanged,
  LoginNameChanged,
  RefreshTokenIssued,
  RefreshTokenRotated,
  RefreshFamilyRevoked,
]);
export type AuthEvent = z.infer<typeof authEventSchema>;

export const credentialsStreamId = (userId: string) => `cred-${userId}`;
