import { importPublicKeySpkiBase64, type KeyLogProblem } from '@veil/crypto';
import { keyLogOf } from './key-logs.ts';

/**
 * The one source of the public keys this browser encrypts to: the head entry of each user's
 * checked key log (`key-logs.ts`), the account's own included. Never `GET /user/publicKey`: a
 * key the server names outside the log would let it read what is sealed for it. A log that
 * cannot be fetched or does not check out blocks the send (`KeysUncheckedError`); nothing falls
 * back to another key.
 */

/** Why a user's keys could not be checked: the log check's problem, or none to check. */
export type UncheckedReason = KeyLogProblem | 'unavailable' | 'empty';

export class KeysUncheckedError extends Error {
  readonly userId: string;
  readonly reason: UncheckedReason;
  /** The log got no answer at all (no network): checking again later may work. */
  readonly unreachable: boolean;

  constructor(userId: string, reason: UncheckedReason, unreachable = false) {
    super(`The keys of ${userId} could not be checked: ${reason}`);
    this.name = 'KeysUncheckedError';
    this.userId = userId;
    this.reason = reason;
    this.unreachable = unreachable;
  }
}

export interface CheckedKeys {
  encryptionKey: string;
  signingKey: string | null;
}

/** Imported once per key (by its SPKI): a send then costs no import. */
const imported = new Map<string, Promise<CryptoKey>>();
const importOnce = (spki: string): Promise<CryptoKey> => {
  let key = imported.get(spki);
  if (!key) {
    key = importPublicKeySpkiBase64(spki);
    imported.set(spki, key);
    key.catch(() => imported.delete(spki));
  }
  return key;
};

/**
 * `userId`'s current keys as the head of their checked log (as `accountId` sees it). `fresh`
 * fetches the log again (a chat opened, the user asked to retry) instead of this page's copy.
 */
export const checkedKeysOf = async (
  accountId: string,
  userId: string,
  { fresh = false }: { fresh?: boolean } = {},
): Promise<CheckedKeys> => {
  // A time after this page's copy was fetched asks `keyLogOf` for a new one.
  const refetched = () => keyLogOf(accountId, userId, new Date(Date.now() + 1).toISOString());
  let log = await (fresh ? refetched() : keyLogOf(accountId, userId));
  // A failed check is asked again at the next attempt (a retry), never taken from this page's copy.
  if (!log.ok && !fresh) log = await refetched();
  if (!log.ok) throw new KeysUncheckedError(userId, log.problem, log.unreachable);
  const head = log.entries.at(-1);
  if (!head) throw new KeysUncheckedError(userId, 'empty');
  return { encryptionKey: head.encryptionKey, signingKey: head.signingKey };
};

/** The encryption key to seal for, from `userId`'s checked log; throws `KeysUncheckedError`. */
export const checkedEncryptionKey = async (accountId: string, userId: string): Promise<CryptoKey> =>
  importOnce((await checkedKeysOf(accountId, userId)).encryptionKey);

/** Every member's checked encryption key by id; the first member whose keys fail throws. */
export const checkedEncryptionKeys = async (
  accountId: string,
  userIds: readonly string[],
): Promise<Record<string, CryptoKey>> =>
  Object.fromEntries(
    await Promise.all(userIds.map(async (id) => [id, await checkedEncryptionKey(accountId, id)] as const)),
  );
