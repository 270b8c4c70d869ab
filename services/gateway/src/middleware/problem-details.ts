import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DomainError, type ErrorCode } from '@veil/contracts';
import type { Logger, Tracing } from '@veil/ports';

/**
 * The one place error codes become HTTP statuses. Every failure leaves as
 * `{ success: false, message }`; unexpected ones are logged and answered with a generic 500 that
 * carries the request's trace id (the one in every log line of the request), never a stack trace.
 */
const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  KEY_MAP_MISMATCH: 400,
  SIGNATURE_MISMATCH: 400,
  KEY_LOG_SIGNATURE_INVALID: 400,
  KEY_LOG_CHANGE_FORBIDDEN: 400,
  KEY_LOG_TIME_INVALID: 400,
  GROUP_CHANGE_UNSIGNED: 400,
  GROUP_CHANGE_INVALID: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  // 403, not 401: the session is valid; the client must not treat it as a signed-out one.
  WRONG_PASSWORD: 403,
  TOKEN_EXPIRED: 401,
  TOKEN_INVALID: 401,
  TOKEN_REUSED: 401,
  TOKEN_REVOKED: 401,
  FORBIDDEN: 403,
  NOT_A_MEMBER: 403,
  CONTACT_UNAVAILABLE: 403,
  ACCOUNT_SUSPENDED: 403,
  NOT_FOUND: 404,
  CHAT_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  LINK_NOT_FOUND: 404,
  USERNAME_TAKEN: 409,
  SIGNING_KEY_EXISTS: 409,
  KEY_LOG_NOT_HEAD: 409,
  GROUP_CHANGE_NOT_HEAD: 409,
  VERSION_CONFLICT: 409,
  LINK_USED: 409,
  LINK_EXPIRED: 410,
  TIME_LIMIT_PASSED: 409,
  PIN_LIMIT_REACHED: 409,
  REPORT_NOT_VERIFIED: 422,
  NOT_REPORTABLE: 422,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
};

export const httpStatusOf = (code: ErrorCode): number => statusByCode[code];

/** Errors raised by Express's own parsers and by multer, translated to domain codes. */
const fromFrameworkError = (error: unknown): DomainError | null => {
  const e = error as { type?: string; status?: number; code?: string; name?: string };
  if (e.type === 'entity.too.large') return new DomainError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  if (e.type === 'entity.parse.failed') return new DomainError('VALIDATION_FAILED', 'Malformed JSON body');
  if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') {
    return new DomainError('UNSUPPORTED_MEDIA', 'Unsupported body encoding');
  }
  if (e.name === 'MulterError') {
    if (e.code === 'LIMIT_FILE_SIZE')
      return new DomainError('PAYLOAD_TOO_LARGE', 'Profile picture is too large');
    if (e.code === 'LIMIT_FIELD_VALUE')
      return new DomainError('PAYLOAD_TOO_LARGE', 'A form field is too large');
    return new DomainError('VALIDATION_FAILED', 'Invalid upload');
  }
  if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
    return new DomainError('VALIDATION_FAILED', 'Bad request');
  }
  return null;
};

export const problemDetails =
  (log: Logger, tracing: Pick<Tracing, 'traceId'>): ErrorRequestHandler =>
  (error, req, res, _next) => {
    const known = error instanceof DomainError ? error : fromFrameworkError(error);
    if (known) {
      res.status(httpStatusOf(known.code)).json({ success: false, message: known.message, code: known.code });
      return;
    }
    const traceId = tracing.traceId() ?? 'none';
    log.error({ err: error, method: req.method, path: req.path }, 'unhandled request error');
    res
      .status(500)
      .json({ success: false, message: `Internal server error (trace ${traceId})`, code: 'INTERNAL' });
  };

export const notFound: RequestHandler = (req, res) => {
  res
    .status(404)
    .json({ success: false, message: `No route for ${req.method} ${req.path}`, code: 'NOT_FOUND' });
};
