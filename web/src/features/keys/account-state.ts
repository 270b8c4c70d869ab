import { openAccountState, sealAccountState, type SealedAccountState } from '@veil/crypto';
import { accountKeys } from './account-keys.ts';
import {
  mergeContactTrust,
  onContactTrustChanged,
  readAllContactTrust,
  type ContactTrust,
} from './contact-trust-store.ts';
import { fetchData } from '../../lib/fetch-data.ts';
import { readSigningKeys } from './key-store.ts';
import { keyLogOf } from './key-logs.ts';
import { readMadeEntries, recordMadeEntries } from './made-entries-store.ts';

/**
 * What the account's browsers trust, carried from one to another (docs/crypto.md, "What travels
 * with the keys"): the key-log entries they made (`made-entries-store.ts`) and, per contact, the
 * pinned key-log head and the verified keys (`contact-trust-store.ts`). It travels sealed and
 * signed in the key backup (`sealAccountState`: the server can neither read nor write it) and
 * inside the encrypted link bundle. Version 1 of this text:
 * `{"version": 1, "madeEntries": {"since", "hashes"}, "contacts": {<id>: ContactTrust}}`.
 */
export interface AccountState {
  version: 1;
  madeEntries: { since: string; hashes: string[] } | null;
  contacts: Record<string, ContactTrust>;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isHash = (value: unknown): value is string => isString(value) && /^[0-9a-f]{64}$/.test(value);

const isContactTrust = (value: unknown): value is ContactTrust => {
  const trust = value as Partial<ContactTrust> | null;
  if (typeof trust !== 'object' || trust === null) return false;
  const verified = trust.verified;
  return (
    (trust.pinnedHash === null || isHash(trust.pinnedHash)) &&
    (trust.verificationLostAt === null || isString(trust.verificationLostAt)) &&
    (verified === null ||
      (typeof verified === 'object' &&
        isString(verified.encryptionKey) &&
        isString(verified.signingKey) &&
        isString(verified.at)))
  );
};

/** The state in a text from another browser of the account; null when it is not one this version reads. */
export const parseAccountState = (value: unknown): AccountState | null => {
  const state = value as Partial<AccountState> | null;
  if (typeof state !== 'object' || state === null || state.version !== 1) return null;
  const { madeEntries, contacts } = state;
  if (
    madeEntries !== null &&
    (typeof madeEntries !== 'object' ||
      !isString(madeEntries.since) ||
      !Array.isArray(madeEntries.hashes) ||
      !madeEntries.hashes.every(isHash))
  )
    return null;
  if (typeof contacts !== 'object' || contacts === null || !Object.values(contacts).every(isContactTrust))
    return null;
  return { version: 1, madeEntries: madeEntries ?? null, contacts };
};

/** What this browser holds for the account now. */
export const collectAccountState = async (userId: string): Promise<AccountState> => {
  const [made, contacts] = await Promise.all([readMadeEntries(userId), readAllContactTrust(userId)]);
  return {
    version: 1,
    madeEntries: made && { since: made.since, hashes: made.hashes },
    contacts,
  };
};

/**
 * Takes in what another browser of the account holds: the entries it made always (so this
 * browser does not alarm over them); its pins and verified marks when `contacts` (a restore or a
 * link: this browser then starts with what the account already trusted).
 */
export const mergeAccountState = async (
  userId: string,
  state: AccountState,
  { contacts }: { contacts: boolean },
): Promise<void> => {
  if (state.madeEntries) await recordMadeEntries(userId, state.madeEntries.hashes, state.madeEntries.since);
  if (contacts) await mergeContactTrust(userId, state.contacts);
};

/** The account's current keys as its own checked log names them; null when the log does not check. */
const currentKeys = async (userId: string) => {
  // Fetched now: this page may hold a copy from before this browser (or another) signed an entry.
  const log = await keyLogOf(userId, userId, new Date(Date.now() + 1).toISOString());
  const head = log.ok ? log.entries.at(-1) : undefined;
  return head?.signingKey ? { encryptionKey: head.encryptionKey, signingKey: head.signingKey } : null;
};

const isStateAnswer = (data: unknown): data is { state: SealedAccountState | null } =>
  typeof data === 'object' && data !== null && 'state' in data;

const openState = async (sealed: SealedAccountState, signingKey: string, userId: string) =>
  parseAccountState(
    JSON.parse(await openAccountState(sealed, { signingKey, privateKeys: await accountKeys(userId) })),
  );

/**
 * A restore: the sealed state that came with the backup, opened with the keys just restored, is
 * taken in whole (pins and verified marks included). One that does not open is left out: the
 * keys still restore.
 */
export const takeSealedAccountState = async (userId: string, sealed: SealedAccountState): Promise<void> => {
  try {
    const keys = await currentKeys(userId);
    if (!keys) return;
    const state = await openState(sealed, keys.signingKey, userId);
    if (state) await mergeAccountState(userId, state, { contacts: true });
  } catch (error) {
    console.warn('The account state of the key backup could not be opened', error);
  }
};

/** Seals what this browser holds and stores it in the account's backup; false when it cannot. */
export const uploadAccountState = async (userId: string): Promise<boolean> => {
  const keys = await currentKeys(userId);
  if (!keys) return false;
  const signer = (await readSigningKeys(userId)).find((key) => key.publicKey === keys.signingKey);
  if (!signer) return false;
  const state = await sealAccountState(JSON.stringify(await collectAccountState(userId)), {
    ...keys,
    signingPrivateKey: signer.privateKey,
  });
  await fetchData('user/keyBackup/state', (data): data is unknown => data !== undefined, {
    json: { state },
    method: 'PUT',
  });
  return true;
};

/**
 * Brings the backup's state and this browser's together at a session start: takes in the entries
 * the other browsers made, and stores the union again if this browser holds anything the backup
 * lacks. Nothing happens for an account without a backup.
 */
export const syncAccountState = async (userId: string): Promise<void> => {
  const keys = await currentKeys(userId);
  if (!keys) return;
  let sealed: SealedAccountState | null;
  try {
    ({ state: sealed } = await fetchData('user/keyBackup/state', isStateAnswer));
  } catch {
    return; // no backup to carry it (or no answer): nothing to bring together
  }
  let stored: AccountState | null = null;
  try {
    stored = sealed && (await openState(sealed, keys.signingKey, userId));
  } catch (error) {
    // Sealed for keys this browser does not hold (a reset elsewhere), or not the account's: replaced.
    console.warn('Could not open the account state of the key backup', error);
  }
  if (stored) await mergeAccountState(userId, stored, { contacts: false });
  const local = await collectAccountState(userId);
  const behind =
    !stored ||
    local.madeEntries?.hashes.some((hash) => !stored.madeEntries?.hashes.includes(hash)) ||
    Object.entries(local.contacts).some(
      ([id, trust]) => JSON.stringify(stored.contacts[id]) !== JSON.stringify(trust),
    );
  if (behind) scheduleAccountStateUpload(userId);
};

const uploadDelayMs = 2000;
const pending = new Map<string, ReturnType<typeof setTimeout>>();

/** Stores the state again a little after the last change (a chat list checks many logs at once). */
export const scheduleAccountStateUpload = (userId: string): void => {
  clearTimeout(pending.get(userId));
  pending.set(
    userId,
    setTimeout(() => {
      pending.delete(userId);
      uploadAccountState(userId).catch((error: unknown) =>
        console.warn('Could not store the account state in the key backup', error),
      );
    }, uploadDelayMs),
  );
};

onContactTrustChanged(scheduleAccountStateUpload);
