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
  type EncryptedEnvelope,
  type MessageReading,
} from './envelope.ts';
export {
  MISSING_INPUT_TEXT,
  buildGroupPayload,
  buildIndividualPayload,
  type GroupPayload,
  type IndividualParties,
  type IndividualPayload,
} from './payloads.ts';
export { PublicKeyCache } from './key-cache.ts';
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
  passphraseIterations,
  setBackupPassphrase,
  type BackupSecret,
  type BackupUnlock,
  type KeyBackup,
  type PassphraseUnlock,
  type RecoveryKeyUnlock,
  type SealedBytes,
} from './key-backup.ts';
export { sealPrivateKey, sealPrivateKeyJwk, unsealPrivateKey, type SealedPrivateKey } from './sealed-key.ts';
export { linkCodeOf, linkIdOfCode } from './link-code.ts';
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
  type MessageContent,
} from './message-content.ts';
