import { z } from 'zod';
import { publicKeySchema, signingKeySchema } from './schemas.ts';

/**
 * The key-change log (docs/crypto.md, "The key-change log"): one entry per publication of an
 * account's public keys, each naming the SHA-256 of the entry before it. @veil/crypto builds
 * (`nextKeyLogEntry`) and checks (`checkKeyLog`) entries; this is their stored and served shape.
 */
export const keyLogReasonSchema = z.enum(['registered', 'signing-key-added', 'reset']);
export type KeyLogReasonName = z.infer<typeof keyLogReasonSchema>;

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const keyLogEntrySchema = z.strictObject({
  seq: z.number().int().positive(),
  encryptionKey: publicKeySchema,
  signingKey: signingKeySchema.nullable(),
  encryptionKeyFingerprint: sha256Hex,
  signingKeyFingerprint: sha256Hex.nullable(),
  reason: keyLogReasonSchema,
  at: z.iso.datetime(),
  prevHash: sha256Hex,
  hash: sha256Hex,
});
export type KeyLogEntryView = z.infer<typeof keyLogEntrySchema>;

/** `GET /users/:id/keyLog`: the whole log, oldest first, and the keys published as current. */
export interface KeyLogView {
  entries: KeyLogEntryView[];
  current: { encryptionKey: string; signingKey: string | null };
}

/** `POST /user/signingKey`: the caller's first signing key, for an account that has none. */
export const addSigningKeyBodySchema = z.strictObject({ signingKey: signingKeySchema });

/**
 * `POST /user/resetKeys` ("I lost my key: start fresh"): a new key pair of each kind, and
 * optionally the encrypted backup of the new bundle (checked by `parseKeyBackup`: size, then shape).
 */
export const resetKeysBodySchema = z.strictObject({
  publicKey: publicKeySchema,
  signingKey: signingKeySchema,
  backup: z.unknown().optional(),
});
