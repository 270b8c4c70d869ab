import {
  DomainError,
  keyLogStreamId,
  publicKeySchema,
  type ErrorCode,
  type KeyLogEntryView,
  type KeyLogReasonName,
  type SignedKeyLogEntryView,
} from '@veil/contracts';
import {
  checkKeyLogEntry,
  importPublicKeySpkiBase64,
  importSigningPublicKeySpkiBase64,
  keyLogGenesisHash,
  nextKeyLogEntry,
  type KeyLogProblem,
} from '@veil/crypto';
import { newEvent, withRetry } from '@veil/kernel';
import type { Clock, ContextEventStore, IdGenerator } from '@veil/ports';

/**
 * Appending to an account's key-change log (`keylog-<userId>`), with the version of the newest
 * entry read, so two racing publications cannot both extend the same entry. Browsers make and
 * sign entries (`appendSignedKeyLogEntry`); the server makes one only for an account registered
 * without a signing key (a client without them), unsigned (`appendKeyLogEntry`).
 */
type Deps = { store: ContextEventStore; clock: Clock; ids: IdGenerator };

export type PublishedKeys = Pick<KeyLogEntryView, 'encryptionKey' | 'signingKey' | 'reason'>;

const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message);

/** The encryption key must be a real RSA-OAEP SPKI key: a garbage key would make every message to this user unreadable. */
export const checkEncryptionKey = async (publicKey: string): Promise<void> => {
  const refused = () => invalid('publicKey must be a base64 RSA-OAEP public key (SPKI)');
  if (!publicKeySchema.safeParse(publicKey).success) throw refused();
  try {
    await importPublicKeySpkiBase64(publicKey);
  } catch {
    throw refused();
  }
};

export const checkSigningKey = async (signingKey: string): Promise<void> => {
  try {
    await importSigningPublicKeySpkiBase64(signingKey);
  } catch {
    throw invalid('signingKey must be a base64 ECDSA P-256 public key (SPKI)');
  }
};

const readHead = async (deps: Deps, userId: string) => {
  const recorded = await deps.store.readLast('user', keyLogStreamId(userId));
  const lastEvent = recorded?.event;
  return {
    version: recorded?.position ?? 0,
    head: lastEvent?.type === 'KeysPublished' ? lastEvent.data.entry : null,
  };
};

/**
 * How far a signed entry's time (the browser's clock) may be from the server's, either way: a
 * browser makes an entry the moment before it sends it.
 */
export const keyLogClockSkewMs = 5 * 60_000;

const codeOf: Record<KeyLogProblem, ErrorCode> = {
  'broken-chain': 'VALIDATION_FAILED',
  'fingerprint-mismatch': 'VALIDATION_FAILED',
  rewritten: 'KEY_LOG_NOT_HEAD',
  'current-key-mismatch': 'KEY_LOG_CHANGE_FORBIDDEN',
  empty: 'VALIDATION_FAILED',
  unsigned: 'VALIDATION_FAILED',
  'bad-signature': 'KEY_LOG_SIGNATURE_INVALID',
  'forbidden-change': 'KEY_LOG_CHANGE_FORBIDDEN',
  backdated: 'KEY_LOG_TIME_INVALID',
  'future-dated': 'KEY_LOG_TIME_INVALID',
};

const checkSignedEntry = async (
  deps: Pick<Deps, 'clock'>,
  head: KeyLogEntryView | null,
  entry: SignedKeyLogEntryView,
  reason: KeyLogReasonName,
  check: (head: KeyLogEntryView | null) => void = () => {},
): Promise<void> => {
  if (entry.reason !== reason)
    throw new DomainError('KEY_LOG_CHANGE_FORBIDDEN', `This route takes a \`${reason}\` entry`);
  if (entry.seq !== (head?.seq ?? 0) + 1 || entry.prevHash !== (head?.hash ?? keyLogGenesisHash))
    throw new DomainError('KEY_LOG_NOT_HEAD', "The entry does not follow the key log's newest entry");
  check(head);
  const now = deps.clock.now().getTime();
  if (!(Math.abs(Date.parse(entry.at) - now) <= keyLogClockSkewMs))
    throw new DomainError('KEY_LOG_TIME_INVALID', "The entry's time is not within minutes of the server's");
  await Promise.all([checkEncryptionKey(entry.encryptionKey), checkSigningKey(entry.signingKey)]);
  const failure = await checkKeyLogEntry(head, entry, now);
  if (failure)
    throw new DomainError(codeOf[failure.problem], `The key log entry is refused: ${failure.detail}`);
};

/** Checks an entry against the log as it is now, before anything is spent or stored for it. */
export const precheckSignedKeyLogEntry = async (
  deps: Deps,
  userId: string,
  entry: SignedKeyLogEntryView,
  reason: KeyLogReasonName,
): Promise<void> => checkSignedEntry(deps, (await readHead(deps, userId)).head, entry, reason);

/** Checks a registration's first entry before anything of the account is stored. */
export const checkFirstKeyLogEntry = (deps: Pick<Deps, 'clock'>, entry: SignedKeyLogEntryView) =>
  checkSignedEntry(deps, null, entry, 'registered');

/**
 * Appends an entry a browser of the account made and signed, after checking all the server can:
 * that it has the reason the route is for, extends the stored newest entry (seq and prevHash),
 * is dated within `keyLogClockSkewMs` of the server's clock and not before that entry, and holds
 * by `checkKeyLogEntry` (hash, fingerprints, what its reason may change, the signature of the key
 * the reason names). `check` sees the stored newest entry and may refuse more. Appended with the
 * version read, so of two racing entries one is refused (KEY_LOG_NOT_HEAD). Resolves the position.
 */
export const appendSignedKeyLogEntry = (
  deps: Deps,
  userId: string,
  entry: SignedKeyLogEntryView,
  reason: KeyLogReasonName,
  check: (head: KeyLogEntryView | null) => void = () => {},
): Promise<number> =>
  withRetry(async () => {
    const { version, head } = await readHead(deps, userId);
    await checkSignedEntry(deps, head, entry, reason, check);
    const { position } = await deps.store.append(
      'user',
      newEvent(deps, 'KeysPublished', keyLogStreamId(userId), { userId, entry }),
      { expectedVersion: version },
    );
    return position;
  });

/**
 * Appends the legacy (unsigned) entry `decide` returns given the log's last entry (null for an
 * empty log); `decide` may refuse by throwing. Resolves the appended position.
 */
export const appendKeyLogEntry = (
  deps: Deps,
  userId: string,
  decide: (last: KeyLogEntryView | null) => PublishedKeys,
): Promise<number> =>
  withRetry(async () => {
    const { version, head } = await readHead(deps, userId);
    const entry = await nextKeyLogEntry(head, { ...decide(head), at: deps.clock.now().toISOString() });
    const { position } = await deps.store.append(
      'user',
      newEvent(deps, 'KeysPublished', keyLogStreamId(userId), { userId, entry }),
      { expectedVersion: version },
    );
    return position;
  });
