export { base64ToBytes, bytesToBase64 } from './base64.ts';
export { VeilCryptoError, type CryptoErrorCode } from './errors.ts';
export {
  exportPrivateKeyJwk,
  exportPublicKeySpkiBase64,
  generateUserKeyPair,
  importPrivateKeyJwk,
  importPublicKeySpkiBase64,
  nonExtractablePrivateKey,
  privateJwkMatchesPublicKey,
  rsaOaep,
} from './keys.ts';
export {
  FAILED_TO_DECRYPT,
  decryptForDisplay,
  decryptMessage,
  decryptWithAnyKey,
  encryptMessage,
  readMessage,
  rewrapMessageKey,
  type WrappedMessageKey,
  type EncryptedEnvelope,
  type MessageReading,
} from './envelope.ts';
export {
  MISSING_INPUT_TEXT,
  buildGroupPayload,
  buildIndividualPayload,
  sealGroupPayload,
  sealIndividualPayload,
  type Committed,
  type GroupPayload,
  type IndividualParties,
  type IndividualPayload,
} from './payloads.ts';
export { PublicKeyCache } from './key-cache.ts';
export { padPlaintext, paddedSize, unpadPlaintext, type Padding } from './padding.ts';
export {
  generateRecoveryKey,
  normalizeRecoveryKey,
  recoveryKeyBytesOf,
  recoveryKeyGroupCount,
  recoveryKeyGroups,
} from './recovery-key.ts';
export {
  createKeyBackup,
  keyBackupVersion,
  maxPassphraseIterations,
  minPassphraseIterations,
  openKeyBackup,
  openKeyBackupBundle,
  setBackupPassphrase,
  type BackupSecret,
  type BackupUnlock,
  type KeyBackup,
  type OpenedKeyBundle,
  type PassphraseKdf,
  type PassphraseUnlock,
  type RecoveryKeyUnlock,
  type SealedBytes,
} from './key-backup.ts';
export {
  argon2idBounds,
  argon2idParams,
  argon2idParamsAreAcceptable,
  deriveArgon2idKey,
  type Argon2idParams,
} from './argon2id.ts';
export { linkCodeOf, linkIdOfCode, linkQrTextOf, readLinkQrText } from './link-code.ts';
export {
  accountStateVersion,
  openAccountState,
  sealAccountState,
  type SealedAccountState,
} from './account-state.ts';
export {
  agreeLink,
  generateLinkKeyPair,
  linkCommitment,
  linkCommitmentMatches,
  openLinkBundle,
  sealLinkBundle,
  type LinkAgreement,
  type LinkKeyPair,
  type LinkParties,
} from './device-link.ts';
export {
  sealPrivateKey,
  sealPrivateKeyJwk,
  unsealPrivateKey,
  type SealedKeyUse,
  type SealedPrivateKey,
} from './sealed-key.ts';
export {
  ecdsaP256,
  generateSigningKeyPair,
  importSigningPrivateKeyJwk,
  importSigningPublicKeySpkiBase64,
  nonExtractableSigningKey,
  signingJwkMatchesPublicKey,
} from './signing-key.ts';
export { keyFingerprint } from './digest.ts';
export { keyCommitmentLabel, keyCommitmentOf } from './key-commitment.ts';
export { frankText, frankingHolds, frankingLabel, frankingTagOf, type Franking } from './franking.ts';
export {
  checkKeyLog,
  checkKeyLogEntry,
  isSignedKeyLogEntry,
  keyLogEntryBytes,
  keyLogEntryHash,
  keyLogFutureWindowMs,
  keyLogGenesisHash,
  keyLogReasons,
  nextKeyLogEntry,
  signKeyLogEntry,
  type KeyLogCheck,
  type KeyLogEntry,
  type KeyLogEntryFailure,
  type KeyLogProblem,
  type KeyLogReason,
  type SignedKeyLogEntry,
} from './key-log.ts';
export {
  safetyNumber,
  safetyNumberGroups,
  safetyNumberHalf,
  safetyNumberIterations,
  type Identity,
} from './safety-number.ts';
export {
  checkMessageSignature,
  directChatRef,
  editVersionOf,
  keyMapSummaryOf,
  messageActionSignatureBytes,
  messageSignatureBytes,
  messagesSignedSince,
  sealedFor,
  signatureV2Since,
  frankingSince,
  signMessage,
  signingKeyAt,
  verifyMessageSignature,
  type ActionSequence,
  type KeyMap,
  type KeyMapSummary,
  type SignatureSequence,
  type MessageActionKind,
  type Signed,
  type SignedKeys,
  type SignatureFailure,
  type SignatureVerdict,
  type SignedMessage,
  type SignedMessageAction,
} from './message-signature.ts';
export {
  attachmentChunkBytes,
  attachmentFormatVersion,
  chunkCountOf,
  encryptBlobInChunks,
  encryptedChunkSizeOf,
  encryptedSizeOf,
  newAttachmentCipher,
  openAttachmentCipher,
  type AttachmentCipher,
  type AttachmentKey,
} from './attachment.ts';
export {
  decodeMessageContent,
  encodeMessageContent,
  type AttachmentRef,
  type AttachmentThumbnail,
  type CallRecord,
  type MessageContent,
} from './message-content.ts';
export { maxMentions, sanitizeMentions, type MessageMention } from './mentions.ts';
export {
  createVaultKey,
  openVault,
  openVaultKey,
  sealVault,
  type SealedVault,
  type WrappedVaultKey,
} from './local-vault.ts';
export {
  applyGroupChange,
  checkGroupChangeHash,
  groupChainGenesisHash,
  groupChangeBody,
  groupChangeBytes,
  groupChangeKinds,
  signGroupChange,
  verifyGroupChain,
  verifyGroupChangeSignature,
  type GroupChainCheck,
  type GroupChainFailure,
  type GroupChainProblem,
  type GroupChainState,
  type GroupChange,
  type GroupChangeBody,
  type GroupChangeKind,
  type GroupFold,
  type SignedGroupChange,
} from './group-chain.ts';
export {
  callSignalBytes,
  callSignalKinds,
  callSignalWindowMs,
  normalizeFingerprint,
  openCallSignal,
  sameFingerprint,
  sdpFingerprint,
  sealCallSignal,
  verifyCallSignalSignature,
  type CallIceCandidate,
  type CallMedia,
  type CallRouting,
  type CallSignalBody,
  type CallSignalFailure,
  type CallSignalKind,
  type CallSignalOpening,
  type GroupCallRoster,
  type SealedCallSignal,
} from './call-signal.ts';
