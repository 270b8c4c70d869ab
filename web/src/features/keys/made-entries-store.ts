import { createStore, del, get, update } from 'idb-keyval';

/**
 * The key-log entries this account's browsers made, as this browser knows them (IndexedDB,
 * beside the keys: database `keyval-store`, entry `key-log-made:<userId>`): the hashes of the
 * entries it signed itself, those the other browsers recorded (merged from the account state in
 * the backup and the link bundle, `account-state.ts`), and the entries that were in the log when
 * the record started. An entry of the account's log outside it was made by none of them
 * (`own-log-monitor.ts`). `dismissed` are the unknown entries the user chose to stop being told
 * about; they stay unknown and never travel.
 */
export interface MadeEntries {
  /** When this record (or the earliest one merged into it) started. */
  since: string;
  hashes: string[];
  dismissed: string[];
}

const store = createStore('keyval-store', 'keyval');
const entry = (userId: string) => `key-log-made:${userId}`;

export const readMadeEntries = async (userId: string): Promise<MadeEntries | null> =>
  (await get<MadeEntries>(entry(userId), store)) ?? null;

/**
 * Adds entry hashes to the record, in one transaction; starts it (now, or at `since`) if there is
 * none. An earlier `since` merged in moves the start back.
 */
export const recordMadeEntries = (
  userId: string,
  hashes: readonly string[],
  since: string = new Date().toISOString(),
): Promise<void> =>
  update<MadeEntries>(
    entry(userId),
    (record) => ({
      since: record && record.since < since ? record.since : since,
      hashes: [...new Set([...(record?.hashes ?? []), ...hashes])],
      dismissed: record?.dismissed ?? [],
    }),
    store,
  );

/** The user saw the alert about this entry and dismissed it. */
export const dismissUnknownEntry = (userId: string, hash: string): Promise<void> =>
  update<MadeEntries>(
    entry(userId),
    (record) => ({
      since: record?.since ?? new Date().toISOString(),
      hashes: record?.hashes ?? [],
      dismissed: [...new Set([...(record?.dismissed ?? []), hash])],
    }),
    store,
  );

/** Forgets the record with the account's keys: a browser that gets them back merges it again from the backup. */
export const deleteMadeEntries = (userId: string): Promise<void> => del(entry(userId), store);
