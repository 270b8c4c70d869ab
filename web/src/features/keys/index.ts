/**
 * The account's keys and what they prove: key logs, contacts' keys, signatures, group chains.
 * This file is the feature's public entry point: other features import only from here.
 */
export {
  accountKeyRing,
  accountKeys,
  canExportAccountKeys,
  exportableAccountKey,
  exportAccountKeyBundle,
  forgetLoadedKeys,
  keepAccountKeyBundle,
  publishedAccountKey,
  removeAccountKeys,
} from './account-keys.ts';
export {
  collectAccountState,
  mergeAccountState,
  parseAccountState,
  scheduleAccountStateUpload,
  takeSealedAccountState,
} from './account-state.ts';
export { openAccountVault, type AccountVault } from './account-vault.ts';
export {
  checkedEncryptionKey,
  checkedEncryptionKeys,
  checkedKeysOf,
  KeysUncheckedError,
  type UncheckedReason,
} from './checked-keys.ts';
export {
  checkContactKeys,
  markContactVerified,
  unmarkContactVerified,
  type ContactKeys,
} from './contact-keys.ts';
export {
  newGroupId,
  pictureHashOf,
  sealingMembers,
  signedCreation,
  signedGroupChange,
  signGroupStateOnce,
  signingFailed,
  verifiedGroupFor,
  type GroupChangeFailure,
  type VerifiedChange,
  type VerifiedGroup,
} from './group-chain.ts';
export {
  exportableSigningKey,
  generateKeyBundle,
  keepKeyBundle,
  registrationEntry,
  resetEntry,
  type KeyBundle,
} from './identity-keys.ts';
export {
  backupPromptDismissed,
  keysRestored,
  linkClosed,
  linkRequested,
  restoreClosed,
  restoreRequested,
  selectKeysVersion,
  selectLinkOpen,
  selectOfferRestore,
  selectPromptDismissed,
  selectRestoreOpen,
} from './key-backup.slice.ts';
export { keysUncheckedText, uncheckedReasonText } from './key-check-texts.ts';
export { deleteStoredKeyLogs } from './key-log-store.ts';
export { keyLogOf } from './key-logs.ts';
export { type StoredPrivateKey } from './key-store.ts';
export { recordMadeEntries } from './made-entries-store.ts';
export {
  currentSigningKey,
  signOutgoing,
  signOutgoingAction,
  type Outgoing,
  type OutgoingAction,
} from './message-signing.ts';
export {
  isOlderEdit,
  sealedForAt,
  sealedWrongly,
  shownSignatureOf,
  verifyMessage,
  verifyReaction,
  verifyReactionRemoval,
  type ChatContext,
  type Verification,
} from './message-verification.ts';
export { readStateTexts, unreadableState, type ReadState } from './read-state.ts';
export { commitmentHolds } from './signature-fields.ts';
export { sealedForText, signatureTexts, unverifiedDeletionText, unverifiedText } from './signature-texts.ts';
export { draftStore, searchIndexStore } from './vault-store.ts';
