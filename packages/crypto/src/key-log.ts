import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { keyFingerprint, sha256Hex, utf8 } from './digest.ts';
import { importSigningPublicKeySpkiBase64 } from './signing-key.ts';

/**
 * The key-change log: every key an account ever published, in order, each entry carrying the
 * SHA-256 of the one before it and signed by the account's own signing key, so a server that
 * stores it cannot write an entry of its own (docs/crypto.md, "The key-change log"). A browser
 * remembers the newest entry hash it has seen per contact, so a server that later rewrites the
 * log serves one that does not extend what the browser saw.
 *
 * Reasons, and what each may change (`checkKeyLogEntry`):
 * - `registered`: the first entry; signed by its own signing key.
 * - `signing-key-added`: an account registered without a signing key gets its first one; the
 *   encryption key stays; signed by the new signing key.
 * - `attested`: a browser of the account re-publishes its current keys, unchanged, signed by the
 *   current signing key (gives a legacy account's unsigned log a signed head).
 * - `reset`: lost keys; both keys new, signed by the new signing key. Contacts are told.
 */
export const keyLogReasons = ['registered', 'signing-key-added', 'attested', 'reset'] as const;
export type KeyLogReason = (typeof keyLogReasons)[number];

/** The `prevHash` of the first entry. */
export const keyLogGenesisHash = '0'.repeat(64);

/**
 * How far in the future of the checker's clock an entry's time may be. An entry's time is its
 * maker's browser clock (the server takes it within minutes of its own); the hour leaves room for
 * a viewer whose clock is behind, and no more.
 */
export const keyLogFutureWindowMs = 60 * 60_000;

export interface KeyLogEntry {
  /** 1, 2, 3… with no gap. */
  seq: number;
  /** The keys published by this entry (base64 SPKI); `signingKey` is null for accounts without one yet. */
  encryptionKey: string;
  signingKey: string | null;
  encryptionKeyFingerprint: string;
  signingKeyFingerprint: string | null;
  reason: KeyLogReason;
  /** When it was made (ISO 8601): by the account's browser for a signed entry, by the server for a legacy one. */
  at: string;
  prevHash: string;
  /** SHA-256 of the entry's encoding, lowercase hex (`keyLogEntryBytes`; legacy: `keyLogEntryHash`). */
  hash: string;
  /**
   * The account's ECDSA P-256 (SHA-256) signature over the entry's encoding, base64 (64 bytes).
   * Absent: a legacy entry, made by the server before entries were signed.
   */
  signature?: string;
}

/** An entry made and signed by a browser of the account. */
export type SignedKeyLogEntry = KeyLogEntry & {
  signingKey: string;
  signingKeyFingerprint: string;
  signature: string;
};

export const isSignedKeyLogEntry = (entry: KeyLogEntry): entry is SignedKeyLogEntry =>
  typeof entry.signature === 'string';

type LegacyHashedFields = Pick<
  KeyLogEntry,
  'seq' | 'encryptionKeyFingerprint' | 'signingKeyFingerprint' | 'reason' | 'at' | 'prevHash'
>;

/** A legacy entry's hash: one line per field in a fixed order, no JSON canonicalisation to disagree about. */
export const keyLogEntryHash = (entry: LegacyHashedFields): Promise<string> =>
  sha256Hex(
    utf8(
      [
        'veil key log 1',
        String(entry.seq),
        entry.encryptionKeyFingerprint,
        entry.signingKeyFingerprint ?? '-',
        entry.reason,
        entry.at,
        entry.prevHash,
      ].join('\n'),
    ),
  );

type SignedFields = Omit<SignedKeyLogEntry, 'hash' | 'signature'>;

/**
 * What a signed entry's hash and signature cover: one field a line, its own first line (no
 * legacy entry, message or action encodes to these bytes), the keys and their fingerprints.
 */
export const keyLogEntryBytes = (entry: SignedFields): Uint8Array<ArrayBuffer> => {
  const fields = [
    'veil key log 2',
    String(entry.seq),
    entry.encryptionKey,
    entry.encryptionKeyFingerprint,
    entry.signingKey,
    entry.signingKeyFingerprint,
    entry.reason,
    entry.at,
    entry.prevHash,
  ];
  if (fields.some((field) => typeof field !== 'string' || /[\r\n]/.test(field)))
    throw new TypeError('A key log field is missing or holds a line break');
  return utf8(fields.join('\n'));
};

/** The legacy entry (no signature) that follows `previous` (null: the first); the server makes these. */
export const nextKeyLogEntry = async (
  previous: KeyLogEntry | null,
  published: { encryptionKey: string; signingKey: string | null; reason: KeyLogReason; at: string },
): Promise<KeyLogEntry> => {
  const fields = {
    seq: (previous?.seq ?? 0) + 1,
    encryptionKey: published.encryptionKey,
    signingKey: published.signingKey,
    encryptionKeyFingerprint: await keyFingerprint(published.encryptionKey),
    signingKeyFingerprint: published.signingKey === null ? null : await keyFingerprint(published.signingKey),
    reason: published.reason,
    at: published.at,
    prevHash: previous?.hash ?? keyLogGenesisHash,
  };
  return { ...fields, hash: await keyLogEntryHash(fields) };
};

const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * The signed entry that follows `previous` (null: the first) and publishes these keys, signed
 * with `signer`: the private key the reason names (the new signing key for `registered`,
 * `signing-key-added` and `reset`; the current one for `attested`). `at` is this browser's clock.
 */
export const signKeyLogEntry = async (
  previous: Pick<KeyLogEntry, 'seq' | 'hash'> | null,
  published: { encryptionKey: string; signingKey: string; reason: KeyLogReason; at?: string },
  signer: CryptoKey,
): Promise<SignedKeyLogEntry> => {
  const fields: SignedFields = {
    seq: (previous?.seq ?? 0) + 1,
    encryptionKey: published.encryptionKey,
    signingKey: published.signingKey,
    encryptionKeyFingerprint: await keyFingerprint(published.encryptionKey),
    signingKeyFingerprint: await keyFingerprint(published.signingKey),
    reason: published.reason,
    at: published.at ?? new Date().toISOString(),
    prevHash: previous?.hash ?? keyLogGenesisHash,
  };
  const bytes = keyLogEntryBytes(fields);
  const [hash, signature] = await Promise.all([
    sha256Hex(bytes),
    crypto.subtle.sign(ecdsaSha256, signer, bytes),
  ]);
  return { ...fields, hash, signature: bytesToBase64(new Uint8Array(signature)) };
};

export type KeyLogProblem =
  /** An entry's hash, sequence or link to the one before does not hold. */
  | 'broken-chain'
  /** An entry's fingerprint is not its key's. */
  | 'fingerprint-mismatch'
  /** The entry this browser saw last is not in the log: the log was rewritten. */
  | 'rewritten'
  /** The keys served as current are not the last entry's. */
  | 'current-key-mismatch'
  /** No entry at all: every account has one from its registration on. */
  | 'empty'
  /** The newest entry is a legacy one: the account's keys are not signed yet. */
  | 'unsigned'
  /** A signature does not hold for the key its entry's reason names. */
  | 'bad-signature'
  /** An entry changes what its reason may not change (a key swap that is not a `reset`), or comes where its reason may not. */
  | 'forbidden-change'
  /** An entry is dated before the one it follows. */
  | 'backdated'
  /** An entry is dated beyond the checker's clock and its window (`keyLogFutureWindowMs`). */
  | 'future-dated';

export interface KeyLogEntryFailure {
  problem: KeyLogProblem;
  detail: string;
}

const verifyEntrySignature = async (signer: string, entry: SignedKeyLogEntry): Promise<boolean> => {
  try {
    const signature = base64ToBytes(entry.signature);
    if (signature.length !== 64) return false;
    const key = await importSigningPublicKeySpkiBase64(signer);
    return await crypto.subtle.verify(ecdsaSha256, key, signature, keyLogEntryBytes(entry));
  } catch {
    return false;
  }
};

/**
 * The signing key whose signature an entry needs, given the entry before it, or the rule it
 * breaks: `attested` is signed by the current key, every other reason by the key it publishes.
 */
const signerFor = (
  previous: KeyLogEntry | null,
  entry: SignedKeyLogEntry,
): { signer: string } | { refused: string } => {
  const sameEncryptionKey = previous?.encryptionKey === entry.encryptionKey;
  const sameSigningKey = previous?.signingKey === entry.signingKey;
  switch (entry.reason) {
    case 'registered':
      return previous
        ? { refused: 'only the first entry may be `registered`' }
        : { signer: entry.signingKey };
    case 'signing-key-added':
      if (previous?.signingKey)
        return { refused: '`signing-key-added` is for an account without a signing key' };
      if (previous && !sameEncryptionKey)
        return { refused: '`signing-key-added` may not change the encryption key' };
      return { signer: entry.signingKey };
    case 'attested':
      if (!previous?.signingKey) return { refused: '`attested` needs a signing key before it' };
      if (!sameEncryptionKey || !sameSigningKey) return { refused: '`attested` may not change keys' };
      return { signer: previous.signingKey };
    case 'reset':
      if (!previous) return { refused: 'a `reset` needs an entry before it' };
      if (sameEncryptionKey || sameSigningKey) return { refused: 'a `reset` publishes two new keys' };
      return { signer: entry.signingKey };
    default:
      return { refused: 'an unknown reason' };
  }
};

/**
 * Checks one entry against the one before it (null: it is the first), at `now` (ms since the
 * epoch): its place in the chain, its hash, its fingerprints, its time and, for a signed entry,
 * what its reason allows and its signature by the key the reason names. Legacy entries have no
 * reason rules: the server made them. Browsers check every entry of a served log with it; the
 * server checks every entry a browser appends with it. Resolves null when the entry holds.
 */
export const checkKeyLogEntry = async (
  previous: KeyLogEntry | null,
  entry: KeyLogEntry,
  now: number,
): Promise<KeyLogEntryFailure | null> => {
  const fail = (problem: KeyLogProblem, detail: string) => ({
    problem,
    detail: `entry ${entry.seq}: ${detail}`,
  });
  if (entry.seq !== (previous?.seq ?? 0) + 1 || entry.prevHash !== (previous?.hash ?? keyLogGenesisHash))
    return fail('broken-chain', 'does not follow the one before it');
  const signed = isSignedKeyLogEntry(entry);
  if (!signed && previous && isSignedKeyLogEntry(previous))
    return fail('broken-chain', 'is unsigned, after signed entries');
  if (signed && entry.signingKey === null)
    return fail('forbidden-change', 'is signed but names no signing key');
  let hash: string;
  try {
    hash = signed ? await sha256Hex(keyLogEntryBytes(entry)) : await keyLogEntryHash(entry);
  } catch {
    return fail('broken-chain', 'cannot be encoded');
  }
  if (entry.hash !== hash) return fail('broken-chain', 'does not match its hash');
  try {
    const signingFingerprint = entry.signingKey === null ? null : await keyFingerprint(entry.signingKey);
    if (
      entry.encryptionKeyFingerprint !== (await keyFingerprint(entry.encryptionKey)) ||
      entry.signingKeyFingerprint !== signingFingerprint
    )
      return fail('fingerprint-mismatch', 'names another key than it carries');
  } catch {
    return fail('fingerprint-mismatch', 'carries a key that is not base64');
  }
  const at = Date.parse(entry.at);
  if (!Number.isFinite(at)) return fail('broken-chain', 'has no valid time');
  if (previous && at < Date.parse(previous.at))
    return fail('backdated', 'is dated before the one it follows');
  if (at > now + keyLogFutureWindowMs) return fail('future-dated', 'is dated in the future');
  if (!signed) return null;
  const rule = signerFor(previous, entry);
  if ('refused' in rule) return fail('forbidden-change', rule.refused);
  if (!(await verifyEntrySignature(rule.signer, entry)))
    return fail('bad-signature', 'is not signed by the key its reason names');
  return null;
};

export type KeyLogCheck =
  | {
      ok: true;
      /** The newest entry: signed, naming the account's current keys. */
      head: SignedKeyLogEntry;
      /** Every `reset` entry, oldest first: each one is announced to the account's contacts. */
      resets: KeyLogEntry[];
      /**
       * When the first signed entry was made. From then on every browser of the account signs
       * all it sends: an unsigned message stored after it is no history from before signatures.
       */
      signedSince: string;
    }
  | { ok: false; problem: KeyLogProblem; detail: string };

/**
 * Checks a served log at `now` (ms since the epoch): every entry against the one before it
 * (`checkKeyLogEntry`), unsigned legacy entries only before the first signed one, containing
 * `pinnedHash` (the newest entry hash this browser saw for the account, if any), ending with
 * `current` (the keys the server serves as the account's now) and with a signed entry. An empty
 * log, or one whose newest entry is unsigned, fails (`empty`, `unsigned`): nothing in it is the
 * account's word.
 */
export const checkKeyLog = async (
  entries: readonly KeyLogEntry[],
  expected: {
    pinnedHash: string | null;
    current: { encryptionKey: string; signingKey: string | null };
    now: number;
  },
): Promise<KeyLogCheck> => {
  const fail = (problem: KeyLogProblem, detail: string): KeyLogCheck => ({ ok: false, problem, detail });
  let previous: KeyLogEntry | null = null;
  let pinned = expected.pinnedHash === null;
  let signedSince: string | null = null;
  for (const entry of entries) {
    const failure = await checkKeyLogEntry(previous, entry, expected.now);
    if (failure) return fail(failure.problem, failure.detail);
    if (entry.hash === expected.pinnedHash) pinned = true;
    if (signedSince === null && isSignedKeyLogEntry(entry)) signedSince = entry.at;
    previous = entry;
  }
  if (!pinned) return fail('rewritten', 'the key log no longer contains the entry this browser saw');
  const head = previous;
  if (!head) return fail('empty', 'the key log has no entry');
  if (
    head.encryptionKey !== expected.current.encryptionKey ||
    head.signingKey !== expected.current.signingKey
  )
    return fail('current-key-mismatch', "the published key is not the key log's last entry");
  if (!isSignedKeyLogEntry(head) || signedSince === null)
    return fail('unsigned', "the key log's newest entry is not signed by the account");
  return { ok: true, head, resets: entries.filter((entry) => entry.reason === 'reset'), signedSince };
};
