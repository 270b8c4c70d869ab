import { checkKeyLog, type KeyLogProblem } from '@veil/crypto';
import { readContactTrust, updateContactTrust } from './contact-trust-store.ts';
import { fetchKeyLog } from './public-key-api.ts';

/**
 * A contact's keys as this browser sees them: the key log checked against what the browser saw
 * before (docs/crypto.md, "The key-change log"), the key resets it records, and whether the user
 * verified the current keys.
 */
export type ContactKeys =
  | {
      kind: 'checked';
      current: { encryptionKey: string; signingKey: string | null };
      /** Times of the contact's key resets, oldest first. */
      resets: string[];
      verified: boolean;
      /** When a key change removed the user's verification; null if none did. */
      verificationLostAt: string | null;
    }
  /**
   * The log served fails its check: it does not extend the one seen before, does not match the
   * current keys, breaks a rule, or is empty or not signed by the account (`unsigned`).
   */
  | { kind: 'warning'; problem: KeyLogProblem; detail: string }
  /** The log could not be fetched (offline, server error): nothing is claimed. */
  | { kind: 'unavailable' };

export const checkContactKeys = async (accountId: string, contactId: string): Promise<ContactKeys> => {
  let log;
  try {
    log = await fetchKeyLog(contactId);
  } catch (error) {
    console.warn('Could not fetch a key log', error);
    return { kind: 'unavailable' };
  }
  const trust = await readContactTrust(accountId, contactId);
  const check = await checkKeyLog(log.entries, {
    pinnedHash: trust.pinnedHash,
    current: log.current,
    now: Date.now(),
  });
  // A failed check changes nothing stored: the pinned entry stays, so the warning stays too.
  if (!check.ok) return { kind: 'warning', problem: check.problem, detail: check.detail };

  const { current } = log;
  const stillVerified =
    trust.verified?.encryptionKey === current.encryptionKey &&
    trust.verified.signingKey === current.signingKey;
  const verificationLostAt = trust.verified && !stillVerified ? check.head.at : trust.verificationLostAt;
  await updateContactTrust(accountId, contactId, (stored) => ({
    pinnedHash: check.head.hash,
    verified: stillVerified ? stored.verified : null,
    verificationLostAt,
  }));
  return {
    kind: 'checked',
    current,
    resets: check.resets.map((entry) => entry.at),
    verified: stillVerified,
    verificationLostAt: stillVerified ? null : verificationLostAt,
  };
};

/** The user compared safety numbers and they matched: these keys are the contact's. */
export const markContactVerified = (
  accountId: string,
  contactId: string,
  keys: { encryptionKey: string; signingKey: string },
): Promise<void> =>
  updateContactTrust(accountId, contactId, (stored) => ({
    ...stored,
    verified: { ...keys, at: new Date().toISOString() },
    verificationLostAt: null,
  }));

export const unmarkContactVerified = (accountId: string, contactId: string): Promise<void> =>
  updateContactTrust(accountId, contactId, (stored) => ({ ...stored, verified: null }));
