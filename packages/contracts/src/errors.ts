/**
 * Stable error codes shared by every service, the gateway and the realtime gateway.
 * Codes say what went wrong in domain terms; the HTTP gateway alone maps them to statuses
 * (services/gateway/src/middleware/problem-details.ts).
 */
export const errorCodes = [
  'VALIDATION_FAILED',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'USERNAME_TAKEN',
  'SIGNING_KEY_EXISTS',
  /** A key log entry whose signature does not hold for the key its reason names. */
  'KEY_LOG_SIGNATURE_INVALID',
  /** A key log entry changing what its reason may not change (a key swap that is not a reset). */
  'KEY_LOG_CHANGE_FORBIDDEN',
  /** A key log entry dated before the one it follows, or not within minutes of the server's clock. */
  'KEY_LOG_TIME_INVALID',
  /** A key log entry that does not extend the log's newest entry (its seq or prevHash). */
  'KEY_LOG_NOT_HEAD',
  /** A group whose state is signed changes only by a signed change (docs/crypto.md, "Signed group state"). */
  'GROUP_CHANGE_UNSIGNED',
  /** A signed group change out of shape, not the caller's, or saying another change than the request. */
  'GROUP_CHANGE_INVALID',
  /** A signed group change that does not extend the group's newest signed change (its seq or prevHash). */
  'GROUP_CHANGE_NOT_HEAD',
  'INVALID_CREDENTIALS',
  /** The current password, asked again before a change to the account, is wrong. */
  'WRONG_PASSWORD',
  'RATE_LIMITED',
  'TOKEN_EXPIRED',
  'TOKEN_INVALID',
  'TOKEN_REUSED',
  'TOKEN_REVOKED',
  'VERSION_CONFLICT',
  'NOT_A_MEMBER',
  'CHAT_NOT_FOUND',
  'USER_NOT_FOUND',
  'MESSAGE_NOT_FOUND',
  'KEY_MAP_MISMATCH',
  /**
   * A version 2 signature that does not fit what it signs: key-log heads for ids the key map does
   * not hold, or no key commitment beside sealed text.
   */
  'SIGNATURE_MISMATCH',
  /** Too late for this change (editing or deleting for everyone after the time limit). */
  'TIME_LIMIT_PASSED',
  /**
   * One of two users blocked the other: no one-to-one message, new chat or group add between
   * them. The same answer whichever of the two blocked (docs/decisions.md, "Blocking").
   */
  'CONTACT_UNAVAILABLE',
  /** The account is suspended by an operator: it cannot log in (docs/decisions.md, "Operators and suspension"). */
  'ACCOUNT_SUSPENDED',
  /**
   * A report whose text or franking key does not give the franking tag its sender signed, or
   * whose message's signature does not hold (docs/crypto.md, "Message franking").
   */
  'REPORT_NOT_VERIFIED',
  /** A message a report cannot verify: sent without a franking tag, edited, or deleted. */
  'NOT_REPORTABLE',
  /** A pin past the most chats one account may pin (`limits.pinnedChatsMax`). */
  'PIN_LIMIT_REACHED',
  'PAYLOAD_TOO_LARGE',
  'LINK_NOT_FOUND',
  'LINK_EXPIRED',
  'LINK_USED',
  'UNSUPPORTED_MEDIA',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

/** The body every failed RPC reply and realtime ack carries. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

/** A failure with a stable code. Thrown by domain code, carried across RPC, mapped to HTTP at the edge. */
export class DomainError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.name = 'DomainError';
    this.code = code;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message };
  }
}

export const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
