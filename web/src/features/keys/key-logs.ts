import { checkKeyLog, type KeyLogEntry, type KeyLogProblem } from '@veil/crypto';
import { readContactTrust } from './contact-trust-store.ts';
import { storeCheckedKeyLog } from './key-log-store.ts';
import { NoConnectionError } from '../../lib/fetch-data.ts';
import { fetchKeyLog } from './public-key-api.ts';

/**
 * Users' key logs as message signatures are checked against them: fetched and checked once per
 * page and user, whatever the number of their messages on screen (the chat's key warnings pin
 * what was seen, `contact-keys.ts`; this only reads the pin). A log that cannot be fetched is not
 * kept, so the next message asks again. A checked log is also stored for the service worker
 * (`key-log-store.ts`).
 */
export type CheckedKeyLog =
  | {
      ok: true;
      entries: readonly KeyLogEntry[];
      current: { encryptionKey: string; signingKey: string | null };
      /** When the log's first signed entry was made (`checkKeyLog`). */
      signedSince: string;
    }
  /** `unreachable`: no answer at all (no network), rather than a refusal. */
  | { ok: false; problem: KeyLogProblem | 'unavailable'; unreachable?: boolean };

interface Cached {
  log: Promise<CheckedKeyLog>;
  /** When it was fetched (this browser's clock): a newer message may need a newer log. */
  fetchedAt: number;
}

const cache = new Map<string, Cached>();
const keyOf = (accountId: string, userId: string) => `${accountId}:${userId}`;

const load = async (accountId: string, userId: string): Promise<CheckedKeyLog> => {
  let log;
  try {
    log = await fetchKeyLog(userId);
  } catch (error) {
    console.warn('Could not fetch a key log', error);
    return {
      ok: false,
      problem: 'unavailable',
      ...(error instanceof NoConnectionError && { unreachable: true }),
    };
  }
  const { pinnedHash } = await readContactTrust(accountId, userId);
  const check = await checkKeyLog(log.entries, { pinnedHash, current: log.current, now: Date.now() });
  if (!check.ok) return { ok: false, problem: check.problem };
  // The service worker checks pushes against what was checked here.
  storeCheckedKeyLog(accountId, userId, log.entries).catch((error: unknown) =>
    console.warn('Could not store a key log', error),
  );
  return { ok: true, entries: log.entries, current: log.current, signedSince: check.signedSince };
};

/**
 * `userId`'s checked key log as `accountId` sees it. `newerThan` (a time) asks for a log fetched
 * after it: a message stored after the cached log was fetched may follow a key change.
 */
export const keyLogOf = (accountId: string, userId: string, newerThan?: string): Promise<CheckedKeyLog> => {
  const key = keyOf(accountId, userId);
  const cached = cache.get(key);
  if (cached && !(newerThan && Date.parse(newerThan) > cached.fetchedAt)) return cached.log;
  const log = load(accountId, userId);
  const entry = { log, fetchedAt: Date.now() };
  cache.set(key, entry);
  void log.then((checked) => {
    if (!checked.ok && checked.problem === 'unavailable' && cache.get(key) === entry) cache.delete(key);
  });
  return log;
};

/** Forgets every log (logout, a key reset of this account): the next look fetches them again. */
export const forgetKeyLogs = (): void => cache.clear();
