import type { KeyLogEntry } from '@veil/crypto';
import { accountKeyRing } from './account-keys.ts';
import { syncAccountState } from './account-state.ts';
import { keyLogOf } from './key-logs.ts';
import { readMadeEntries, recordMadeEntries } from './made-entries-store.ts';

/**
 * The account's own key log, watched by each of its browsers (docs/crypto.md, "Watching the
 * account's own log"): an entry that none of the account's browsers recorded making was made
 * with a key someone else holds (a stolen signing key), or by the server in a reset. Run at a
 * session start, after this browser signed what it had to (`ensureSignedKeyLog`).
 *
 * A browser without a record yet (the first run since this check exists, with no record in the
 * backup either) takes the entries the log holds then as known, once: they were made before
 * anything was recorded, and alarming over every one would teach the user to ignore the alert.
 */
export const unknownOwnEntries = async (userId: string): Promise<KeyLogEntry[]> => {
  // Only the account's browsers watch: one without its keys has made nothing and records nothing.
  if ((await accountKeyRing(userId)).length === 0) return [];
  const startedAt = new Date().toISOString();
  await syncAccountState(userId);
  // The log the sync fetched, or a newer one.
  const log = await keyLogOf(userId, userId, startedAt);
  // A log that fails its check is already shown as such; there is nothing to compare.
  if (!log.ok) return [];
  const record = await readMadeEntries(userId);
  if (!record) {
    await recordMadeEntries(
      userId,
      log.entries.map((entry) => entry.hash),
    );
    return [];
  }
  return log.entries.filter(
    (entry) => !record.hashes.includes(entry.hash) && !record.dismissed.includes(entry.hash),
  );
};
