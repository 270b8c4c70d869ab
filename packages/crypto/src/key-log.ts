import { keyFingerprint, sha256Hex, utf8 } from './digest.ts';

/**
 * The key-change log: every key an account ever published, in order, each entry carrying the
 * SHA-256 of the one before it. The server keeps it; browsers check it. A browser remembers the
 * newest entry hash it has seen per contact, so a server that later swaps a key without a new
 * entry, or rewrites the log, serves a log that does not extend what the browser saw.
 */
export const keyLogReasons = ['registered', 'signing-key-added', 'reset'] as const;
export type KeyLogReason = (typeof keyLogReasons)[number];

/** The `prevHash` of the first entry. */
export const keyLogGenesisHash = '0'.repeat(64);

export interface KeyLogEntry {
  /** 1, 2, 3… with no gap. */
  seq: number;
  /** The keys published by this entry (base64 SPKI); `signingKey` is null for accounts without one yet. */
  encryptionKey: string;
  signingKey: string | null;
  encryptionKeyFingerprint: string;
  signingKeyFingerprint: string | null;
  reason: KeyLogReason;
  /** When the server appended it (ISO 8601). */
  at: string;
  prevHash: string;
  /** SHA-256 of the entry (`keyLogEntryHash`), lowercase hex. */
  hash: string;
}

type HashedFields = Pick<
  KeyLogEntry,
  'seq' | 'encryptionKeyFingerprint' | 'signingKeyFingerprint' | 'reason' | 'at' | 'prevHash'
>;

/** One line per field in a fixed order: no JSON canonicalisation to disagree about. */
export const keyLogEntryHash = (entry: HashedFields): Promise<string> =>
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

/** The entry that follows `previous` (null: the first) and publishes these keys. */
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

export type KeyLogProblem =
  /** An entry's hash, sequence or link to the one before does not hold. */
  | 'broken-chain'
  /** An entry's fingerprint is not its key's. */
  | 'fingerprint-mismatch'
  /** The entry this browser saw last is not in the log: the log was rewritten. */
  | 'rewritten'
  /** The keys served as current are not the last entry's. */
  | 'current-key-mismatch';

export type KeyLogCheck =
  { ok: true; head: KeyLogEntry | null } | { ok: false; problem: KeyLogProblem; detail: string };

/**
 * Checks a served log: a valid chain from the genesis hash, fingerprints that match the keys,
 * containing `pinnedHash` (the newest entry hash this browser saw for the account, if any) and
 * ending with `current` (the keys the server serves as the account's now). An empty log is valid
 * only for an account registered before the log existed, and only if nothing was pinned.
 */
export const checkKeyLog = async (
  entries: readonly KeyLogEntry[],
  expected: { pinnedHash: string | null; current: { encryptionKey: string; signingKey: string | null } },
): Promise<KeyLogCheck> => {
  const fail = (problem: KeyLogProblem, detail: string): KeyLogCheck => ({ ok: false, problem, detail });
  let prevHash = keyLogGenesisHash;
  let pinned = expected.pinnedHash === null;
  for (const [index, entry] of entries.entries()) {
    if (entry.seq !== index + 1 || entry.prevHash !== prevHash)
      return fail('broken-chain', `entry ${index + 1} does not follow the one before it`);
    if (entry.hash !== (await keyLogEntryHash(entry)))
      return fail('broken-chain', `entry ${entry.seq} does not match its hash`);
    const signingFingerprint = entry.signingKey === null ? null : await keyFingerprint(entry.signingKey);
    if (
      entry.encryptionKeyFingerprint !== (await keyFingerprint(entry.encryptionKey)) ||
      entry.signingKeyFingerprint !== signingFingerprint
    )
      return fail('fingerprint-mismatch', `entry ${entry.seq} names another key than it carries`);
    if (entry.hash === expected.pinnedHash) pinned = true;
    prevHash = entry.hash;
  }
  if (!pinned) return fail('rewritten', 'the key log no longer contains the entry this browser saw');
  const head = entries.at(-1) ?? null;
  if (
    head &&
    (head.encryptionKey !== expected.current.encryptionKey || head.signingKey !== expected.current.signingKey)
  )
    return fail('current-key-mismatch', "the published key is not the key log's last entry");
  return { ok: true, head };
};
