import { KeysUncheckedError, type UncheckedReason } from './checked-keys.ts';
import { t } from '../../lib/i18n.ts';

const reasonKeys: Partial<Record<UncheckedReason, string>> = {
  rewritten: 'keyCheck.reasons.rewritten',
  'broken-chain': 'keyCheck.reasons.brokenChain',
  'fingerprint-mismatch': 'keyCheck.reasons.fingerprintMismatch',
  'current-key-mismatch': 'keyCheck.reasons.currentKeyMismatch',
  unavailable: 'keyCheck.reasons.unavailable',
  empty: 'keyCheck.reasons.empty',
  unsigned: 'keyCheck.reasons.unsigned',
  'bad-signature': 'keyCheck.reasons.badSignature',
  'forbidden-change': 'keyCheck.reasons.forbiddenChange',
  backdated: 'keyCheck.reasons.backdated',
  'future-dated': 'keyCheck.reasons.futureDated',
};

/** Why a user's keys could not be checked, in the user's language (a problem without a text of its own reads "does not check out"). */
export const uncheckedReasonText = (reason: UncheckedReason): string =>
  t((reasonKeys[reason] ?? 'keyCheck.reasons.other') as 'keyCheck.reasons.other');

/** "Bob's keys could not be checked: …", or "Your keys…" for the account's own. */
export const keysUncheckedText = (
  error: KeysUncheckedError,
  accountId: string,
  nameOf: (userId: string) => string | undefined,
): string => {
  const reason = uncheckedReasonText(error.reason);
  return error.userId === accountId
    ? t('keyCheck.own', { reason })
    : t('keyCheck.contact', { name: nameOf(error.userId) ?? t('common.someone'), reason });
};

export { KeysUncheckedError };
