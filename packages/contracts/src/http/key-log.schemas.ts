import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { parseWith } from '../parse.ts';
import { publicKeySchema, signingKeySchema } from './schemas.ts';

/**
 * The key-change log (docs/crypto.md, "The key-change log"): one entry per publication of an
 * account's public keys, each naming the SHA-256 of the entry before it and signed by the
 * account's browser. @veil/crypto builds (`signKeyLogEntry`) and checks (`checkKeyLogEntry`,
 * `checkKeyLog`) entries; this is their stored and served shape. Entries stored before entries
 * were signed have no `signature` (legacy, made by the server) and stay readable as they are.
 */
export const keyLogReasonSchema = z.enum(['registered', 'signing-key-added', 'attested', 'reset']);
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
  /** The account's ECDSA P-256 signature (64 bytes, base64); absent from legacy entries. */
  signature: z
    .string()
    .regex(/^[A-Za-z0-9+/]{86}==$/, 'signature must be 64 bytes, base64')
    .optional(),
});
export type KeyLogEntryView = z.infer<typeof keyLogEntrySchema>;

/** An entry a browser sends to be appended: signed, and naming a signing key. */
export const signedKeyLogEntrySchema = keyLogEntrySchema.extend({
  signingKey: signingKeySchema,
  signingKeyFingerprint: sha256Hex,
  signature: keyLogEntrySchema.shape.signature.unwrap(),
});
export type SignedKeyLogEntryView = z.infer<typeof signedKeyLogEntrySchema>;

/** The registration form's `keyLogEntry` field: the first signed entry, as JSON text. */
export const parseKeyLogEntryText = (text: string): SignedKeyLogEntryView => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'keyLogEntry must be JSON text');
  }
  return parseWith(signedKeyLogEntrySchema, value);
};

/** `GET /users/:id/keyLog`: the whole log, oldest first, and the keys published as current. */
export interface KeyLogView {
  entries: KeyLogEntryView[];
  current: { encryptionKey: string; signingKey: string | null };
}

/**
 * `POST /user/signingKey`: the caller's first signing key, for an account that has none, as the
 * `signing-key-added` entry the browser signed with it.
 */
export const addSigningKeyBodySchema = z.strictObject({ entry: signedKeyLogEntrySchema });

/**
 * `POST /user/attestKeys`: the caller's browser re-publishes the account's current keys,
 * unchanged, as an `attested` entry signed by the current signing key (gives a log whose newest
 * entry is unsigned a signed one).
 */
export const attestKeysBodySchema = z.strictObject({ entry: signedKeyLogEntrySchema });

/**
 * `POST /user/resetKeys` ("I lost my key: start fresh"): the `reset` entry publishing a new key
 * pair of each kind, signed by the new signing key, and optionally the encrypted backup of the
 * new bundle (checked by `parseKeyBackup`: size, then shape).
 */
export const resetKeysBodySchema = z.strictObject({
  entry: signedKeyLogEntrySchema,
  backup: z.unknown().optional(),
});
