import type { IncomingMessage } from 'node:http';
import { DomainError, type ErrorBody } from '@veil/contracts';
import type { Logger } from '@veil/ports';
import type { AccessTokenVerifier } from '@veil/tokens';
import type { RealtimeSocket } from './socket-types.ts';

/**
 * Engine.IO `allowRequest`: refuses a handshake whose Origin is not one of the allowed origins
 * (no Origin at all is refused too). Runs before any Socket.IO packet is read.
 */
export const originCheck =
  (allowedOrigins: readonly string[]) =>
  (req: IncomingMessage, done: (err: string | null | undefined, success: boolean) => void): void => {
    const origin = req.headers.origin;
    if (typeof origin === 'string' && allowedOrigins.includes(origin)) return done(null, true);
    done('Origin not allowed', false);
  };

/** The error a refused handshake carries: the client sees `connect_error` with this `data`. */
const refusal = (body: ErrorBody): Error & { data: ErrorBody } =>
  Object.assign(new Error(body.message), { data: body });

/**
 * Socket.IO middleware: the access token in `auth.token` is the only source of the user's
 * identity. Sets `socket.data` before `connection`; a missing or bad token refuses the socket.
 */
export const authenticate =
  (verify: AccessTokenVerifier, log: Logger) =>
  (socket: RealtimeSocket, next: (err?: Error) => void): void => {
    const auth: unknown = socket.handshake.auth;
    const token = typeof auth === 'object' && auth !== null ? (auth as { token?: unknown }).token : undefined;
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) {
      return next(refusal({ code: 'UNAUTHENTICATED', message: 'An access token is required' }));
    }
    verify(token).then(
      (claims) => {
        socket.data.userId = claims.userId;
        socket.data.exp = claims.exp;
        if (claims.sessionId) socket.data.sessionId = claims.sessionId;
        socket.data.present = false;
        next();
      },
      (error: unknown) => {
        if (error instanceof DomainError) return next(refusal(error.toBody()));
        log.error({ err: error }, 'token verification failed unexpectedly');
        next(refusal({ code: 'UNAUTHENTICATED', message: 'Invalid token' }));
      },
    );
  };

/** setTimeout's limit (~24.8 days); longer tokens are re-armed when the timer fires. */
const maxTimerMs = 2 ** 31 - 1;

/**
 * Drops the socket when its token expires: an `error` TOKEN_EXPIRED first, so the client knows
 * to refresh and reconnect. Returns a cancel function for the socket's disconnect.
 */
export const scheduleTokenExpiry = (socket: RealtimeSocket, now: () => number): (() => void) => {
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    const remaining = socket.data.exp * 1000 - now();
    if (remaining > maxTimerMs) {
      timer = setTimeout(arm, maxTimerMs);
      return;
    }
    timer = setTimeout(
      () => {
        socket.emit('error', {
          code: 'TOKEN_EXPIRED',
          message: 'Access token expired; reconnect with a fresh one',
        });
        socket.disconnect(true);
      },
      Math.max(0, remaining),
    );
  };
  arm();
  return () => clearTimeout(timer);
};
