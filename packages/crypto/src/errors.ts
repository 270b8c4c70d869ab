/** Every failure carries a stable `code`, as in jose: callers branch on it, not on messages. */
export type CryptoErrorCode =
  | 'ERR_INVALID_PUBLIC_KEY'
  | 'ERR_DECRYPT'
  | 'ERR_NO_KEY_FOR_USER'
  | 'ERR_MISSING_INPUT'
  | 'ERR_PUBLIC_KEY_FETCH'
  | 'ERR_RECOVERY_KEY_FORMAT'
  | 'ERR_BACKUP_SECRET'
  | 'ERR_BACKUP_DAMAGED'
  | 'ERR_BACKUP_VERSION'
  | 'ERR_BACKUP_FORMAT'
  | 'ERR_ATTACHMENT_DAMAGED'
  | 'ERR_ATTACHMENT_FORMAT'
  | 'ERR_LINK_KEY'
  | 'ERR_LINK_BUNDLE'
  | 'ERR_ACCOUNT_STATE';

export class VeilCryptoError extends Error {
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string) {
    super(message);
    this.name = 'VeilCryptoError';
    this.code = code;
  }
}
