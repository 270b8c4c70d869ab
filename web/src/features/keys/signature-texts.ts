import { t } from '../../lib/i18n.ts';
import type { VerificationFailure } from './message-verification.ts';

/**
 * What screens say about sender signatures and who a message was sealed for, in the app's
 * language at the moment they are read (the locales' `signatures` section).
 */
export const signatureTexts = {
  get unverifiedLead() {
    return t('signatures.unverifiedLead');
  },
  get unverifiedDeletionLead() {
    return t('signatures.unverifiedDeletionLead');
  },
  get legacy() {
    return t('signatures.legacy');
  },
  get verified() {
    return t('signatures.verified');
  },
  get sealedForTitle() {
    return t('signatures.sealedForTitle');
  },
  get sealedWrongly() {
    return t('signatures.sealedWrongly');
  },
  get notSealedFor() {
    return t('signatures.notSealedFor');
  },
  get notMembers() {
    return t('signatures.notMembers');
  },
  get membersUnknown() {
    return t('signatures.membersUnknown');
  },
  get refuseToSend() {
    return t('signatures.refuseToSend');
  },
  get noSigningKeyHere() {
    return t('signatures.noSigningKeyHere');
  },
  get keysNotChecked() {
    return t('signatures.keysNotChecked');
  },
};

/** Why, in words a reader can act on. */
const failureText = (reason: VerificationFailure): string => t(`signatures.failures.${reason}`);

export const unverifiedText = (reason: VerificationFailure): string =>
  `${signatureTexts.unverifiedLead}: ${failureText(reason)}`;

/** A tombstone whose deletion does not hold: the text is gone either way, but not by its sender's word. */
export const unverifiedDeletionText = (reason: VerificationFailure): string =>
  `${signatureTexts.unverifiedDeletionLead}: ${failureText(reason)}`;

/** "Sealed for 3 of 3", or "Sealed for 2 of 3" when someone was left out. */
export const sealedForText = (sealed: number, members: number | null): string =>
  members === null
    ? t('signatures.sealedFor', { count: sealed })
    : t('signatures.sealedForOf', { count: sealed, members });
