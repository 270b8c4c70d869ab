/** Every failure carries a stable `code`, as in jose: callers branch on it, not on messages. */
export type CryptoErrorCode =
  | 'ERR_INVALID_PUBLIC_KEY'
  | 'ERR_DECRYPT'
  | 'ERR_NO_KEY_FOR_USER'
  | 'ERR_MISSING_INPUT'
  | 'ERR_PUBLIC_KEY_FETCH';

export class VeilCryptoError extends Error {
  readonly code: CryptoErrorCode;

  constructor(code: CryptoErrorCode, message: string) {
    super(message);
    this.name = 'VeilCryptoError';
    this.code = code;
  }
}
