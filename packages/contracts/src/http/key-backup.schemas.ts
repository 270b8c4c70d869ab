import { z } from 'zod';
import { DomainError } from '../errors.ts';
import { limits } from '../limits.ts';
import { parseWith } from '../parse.ts';
import { base64OfBytes, isPaddedBase64, publicKeySchema, signingKeySchema } from './schemas.ts';

/**
 * The encrypted key backup as the server accepts it (format versions 1 and 2, made by
 * @veil/crypto's `createKeyBackup`; version 2 may also hold the signing key). The server cannot
 * open it; it checks only that it is a well-formed backup of the right size, so nothing else can
 * be parked under this name. Unknown fields are refused.
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

const intWithin = (name: string, min: number, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(min, `${name} must be at least ${min}`)
    .max(max, `${name} must be at most ${max}`);

/** Earlier backups: PBKDF2-SHA256 (re-wrapped with Argon2id at their next passphrase unlock). */
const pbkdf2Kdf = z.strictObject({
  name: z.literal('PBKDF2-SHA256'),
  salt,
  iterations: intWithin('iterations', limits.keyBackupMinIterations, limits.keyBackupMaxIterations),
});

/** Every new passphrase unlock: Argon2id, one lane, memory and passes bounded alone and together. */
const argon2idKdf = z
  .strictObject({
    name: z.literal('Argon2id'),
    salt,
    memoryKiB: intWithin('memoryKiB', limits.keyBackupArgon2MinMemoryKiB, limits.keyBackupArgon2MaxMemoryKiB),
    iterations: intWithin(
      'iterations',
      limits.keyBackupArgon2MinIterations,
      limits.keyBackupArgon2MaxIterations,
    ),
    parallelism: z.literal(1, { error: 'parallelism must be 1' }),
  })
  .refine(
    (kdf) => kdf.memoryKiB * kdf.iterations <= limits.keyBackupArgon2MaxMemoryTimesIterations,
    `memoryKiB × iterations must be at most ${limits.keyBackupArgon2MaxMemoryTimesIterations}`,
  );

const passphraseUnlockSchema = z.strictObject({
  kind: z.literal('passphrase'),
  kdf: z.discriminatedUnion('name', [pbkdf2Kdf, argon2idKdf], {
    error: 'kdf.name must be Argon2id or PBKDF2-SHA256',
  }),
  iv,
  wrappedKey: wrappedDataKey,
});

export const keyBackupUnlockKinds = ['recovery-key', 'passphrase'] as const;
export type KeyBackupUnlockKind = (typeof keyBackupUnlockKinds)[number];

const encryptedPrivateKey = (maxChars: number) =>
  z.strictObject({
    iv,
    ciphertext: z
      .string({ error: 'ciphertext is required' })
      .max(maxChars, 'ciphertext is too large')
      .refine(isPaddedBase64, 'ciphertext must be base64'),
  });

/**
 * What the account's browsers trust, sealed for the account's encryption key and signed with its
 * signing key (@veil/crypto's `sealAccountState`); the server cannot open it and checks that it
 * names the account's published keys.
 */
export const accountStateSchema = z.strictObject({
  version: z.literal(1, { error: 'Unknown account state version (this server reads version 1)' }),
  encryptionKey: publicKeySchema,
  signingKey: signingKeySchema,
  wrappedKey: z
    .string({ error: 'wrappedKey is required' })
    .max(limits.wrappedKeyMaxChars, 'wrappedKey is too large')
    .refine(isPaddedBase64, 'wrappedKey must be base64'),
  iv,
  ciphertext: z
    .string({ error: 'ciphertext is required' })
    .max(limits.keyBackupStateMaxChars, 'ciphertext is too large')
    .refine(isPaddedBase64, 'ciphertext must be base64'),
  signature: bytes(64, 'signature'),
});
export type AccountStateBlob = z.infer<typeof accountStateSchema>;

export const keyBackupSchema = z
  .strictObject(
    {
      version: z.union([z.literal(1), z.literal(2)], {
        error: 'Unknown key backup version (this server reads versions 1 and 2)',
      }),
      publicKey: publicKeySchema,
      privateKey: encryptedPrivateKey(limits.keyBackupCiphertextMaxChars),
      signingKey: z
        .strictObject({
          publicKey: signingKeySchema,
          privateKey: encryptedPrivateKey(limits.keyBackupSigningCiphertextMaxChars),
        })
        .optional(),
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
      /** Optional: what the account's browsers trust; a backup without it restores the keys alone. */
      state: accountStateSchema.optional(),
    },
    { error: (issue) => (issue.code === 'invalid_type' ? 'backup must be an object' : undefined) },
  )
  .refine((backup) => backup.version === 2 || backup.signingKey === undefined, {
    message: 'Only a version 2 key backup holds a signing key',
    path: ['signingKey'],
  });
export type KeyBackupBlob = z.infer<typeof keyBackupSchema>;

/** `PUT /user/keyBackup`: `{ backup }` and nothing else; the backup itself goes to `parseKeyBackup`. */
export const storeKeyBackupBodySchema = z.strictObject(
  { backup: z.unknown().optional() },
  { error: (issue) => (issue.code === 'invalid_type' ? 'The body must be {"backup": {...}}' : undefined) },
);

/** `PUT /user/keyBackup/state`: `{ state }`, the sealed account state alone. */
export const storeAccountStateBodySchema = z.strictObject(
  { state: z.unknown().optional() },
  { error: (issue) => (issue.code === 'invalid_type' ? 'The body must be {"state": {...}}' : undefined) },
);

/** A sealed account state from a JSON body: the size cap first (413), then the shape (400). */
export const parseAccountState = (value: unknown): AccountStateBlob => {
  if (value === undefined) throw new DomainError('VALIDATION_FAILED', 'state is required');
  if (JSON.stringify(value ?? null).length > limits.keyBackupMaxBytes) throw tooLarge();
  return parseWith(accountStateSchema, value);
};

/** What the owner (and only the owner) learns about their backup without downloading it. */
export interface KeyBackupSummary {
  storedAt: string;
  /** Which secrets open it. */
  unlocks: KeyBackupUnlockKind[];
  /** Whether it holds a signing key too (a version 1 backup, or one made before the account had one, does not). */
  holdsSigningKey: boolean;
}

/** `GET /user/keyStatus`: the account's published keys and whether a backup of them exists. */
export interface KeyStatus {
  publicKey: string;
  /** The identity signing key (base64 SPKI), null for an account that has not made one yet. */
  signingKey: string | null;
  /** When the published encryption key was published (registration, or the last key reset). */
  publishedAt: string;
  backup: KeyBackupSummary | null;
}

export const summarizeKeyBackup = (backup: KeyBackupBlob, storedAt: string): KeyBackupSummary => ({
  storedAt,
  unlocks: backup.unlocks.map((unlock) => unlock.kind),
  holdsSigningKey: backup.signingKey !== undefined,
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
