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
  type EncryptedEnvelope,
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
