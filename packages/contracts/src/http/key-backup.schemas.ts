import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { limits } from '../limits.ts';
import { parseWith } from '../parse.ts';
import { base64OfBytes, isPaddedBase64, publicKeySchema } from './schemas.ts';

/**
 * The encrypted key backup as the server accepts it (format version 1, made by @veil/crypto's
 * `createKeyBackup`). The server cannot open it; it checks only that it is a well-formed backup
 * of the right size, so nothing else can be parked under this name. Unknown fields are refused.
 */
const bytes = base64OfBytes;

/** A 256-bit data key, AES-GCM-wrapped: 32 bytes and the 16-byte tag. */
const wrappedDataKey = bytes(48, 'wrappedKey');
const iv = bytes(12, 'iv');
const salt = bytes(16, 'salt');

const recoveryKeyUnlockSchema = z.strictObject({
  kind: z.literal('recovery-key'),
  kdf: z.strictObject({ name: z.literal('HKDF-SHA256'), salt }),
  iv,
  wrappedKey: wrappedDataKey,
});

const passphraseUnlockSchema = z.strictObject({
  kind: z.literal('passphrase'),
  kdf: z.strictObject({
    name: z.literal('PBKDF2-SHA256'),
    salt,
    iterations: z
      .number()
      .int()
      .min(limits.keyBackupMinIterations, `iterations must be at least ${limits.keyBackupMinIterations}`)
      .max(limits.keyBackupMaxIterations, `iterations must be at most ${limits.keyBackupMaxIterations}`),
  }),
  iv,
  wrappedKey: wrappedDataKey,
});

export const keyBackupUnlockKinds = ['recovery-key', 'passphrase'] as const;
export type KeyBackupUnlockKind = (typeof keyBackupUnlockKinds)[number];

export const keyBackupSchema = z.strictObject(
  {
    version: z.literal(1, { error: 'Unknown key backup version (this server reads version 1)' }),
    publicKey: publicKeySchema,
    privateKey: z.strictObject({
      iv,
      ciphertext: z
        .string({ error: 'ciphertext is required' })
        .max(limits.keyBackupCiphertextMaxChars, 'ciphertext is too large')
        .refine(isPaddedBase64, 'ciphertext must be base64'),
    }),
    unlocks: z
      .array(z.discriminatedUnion('kind', [recoveryKeyUnlockSchema, passphraseUnlockSchema]), {
        error: 'unlocks must be a list',
      })
      .refine(
        (unlocks) =>
          unlocks.filter((u) => u.kind === 'recovery-key').length === 1 &&
          unlocks.filter((u) => u.kind === 'passphrase').length <= 1,
        'A key backup has one recovery-key unlock and at most one passphrase unlock',
      ),
  },
  { error: (issue) => (issue.code === 'invalid_type' ? 'backup must be an object' : undefined) },
);
export type KeyBackupBlob = z.infer<typeof keyBackupSchema>;

/** `PUT /user/keyBackup`: `{ backup }` and nothing else; the backup itself goes to `parseKeyBackup`. */
export const storeKeyBackupBodySchema = z.strictObject(
  { backup: z.unknown().optional() },
  { error: (issue) => (issue.code === 'invalid_type' ? 'The body must be {"backup": {...}}' : undefined) },
);

/** What the owner (and only the owner) learns about their backup without downloading it. */
export interface KeyBackupSummary {
  storedAt: string;
  /** Which secrets open it. */
  unlocks: KeyBackupUnlockKind[];
}

/** `GET /user/keyStatus`: the account's published key and whether a backup of it exists. */
export interface KeyStatus {
  publicKey: string;
  /** When the published key was published (registration, until keys can be replaced). */
  publishedAt: string;
  backup: KeyBackupSummary | null;
}

export const summarizeKeyBackup = (backup: KeyBackupBlob, storedAt: string): KeyBackupSummary => ({
  storedAt,
  unlocks: backup.unlocks.map((unlock) => unlock.kind),
});

const tooLarge = () =>
  new DomainError(
    'PAYLOAD_TOO_LARGE',
    `The key backup is too large (${limits.keyBackupMaxBytes} bytes at most)`,
  );

/** A backup from a JSON body: the size cap first (a clear 413), then the shape (400). */
export const parseKeyBackup = (value: unknown): KeyBackupBlob => {
  if (value === undefined) throw new DomainError('VALIDATION_FAILED', 'backup is required');
  if (JSON.stringify(value ?? null).length > limits.keyBackupMaxBytes) throw tooLarge();
  return parseWith(keyBackupSchema, value);
};

/** A backup sent as JSON text (the multipart `keyBackup` field of registration). */
export const parseKeyBackupText = (text: string): KeyBackupBlob => {
  if (text.length > limits.keyBackupMaxBytes) throw tooLarge();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new DomainError('VALIDATION_FAILED', 'keyBackup must be JSON');
  }
  return parseKeyBackup(value);
};
