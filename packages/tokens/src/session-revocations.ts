import type { ContextEventBus, Logger } from '@veil/ports';

/** No access token lives longer than this (ACCESS_TOKEN_TTL_SECONDS' upper bound). */
const longestTokenLifeMs = 86_400_000;

export interface SessionRevocations {
  isRevoked(sessionId: string): boolean;
  /** Told of every revocation from now on (the realtime gateway drops that session's sockets). */
  onRevoked(listener: (revoked: { userId: string; sessionId: string }) => void): () => void;
  stop(): Promise<void>;
}

/**
 * The sessions ended by logout, a password change or refresh-token reuse, followed from the
 * access context by each gateway, so an access token of an ended session is refused within a
 * moment instead of working until it expires. Resolves once the log's current revocations are
 * in, so a gateway never starts accepting tokens it should refuse. A session is forgotten once
 * every token it could have minted has expired.
 */
export const followSessionRevocations = async (
  bus: ContextEventBus,
  log: Logger,
): Promise<SessionRevocations> => {
  const revokedAt = new Map<string, number>();
  const listeners = new Set<(revoked: { userId: string; sessionId: string }) => void>();
  const forgetExpired = (now: number) => {
    for (const [sessionId, at] of revokedAt) {
      if (now - at < longestTokenLifeMs) break; // kept in revocation order: the rest are newer
      revokedAt.delete(sessionId);
    }
  };

  const head = await bus.headPosition('access');
  let caughtUp: () => void = () => {};
  const ready = new Promise<void>((resolve) => (caughtUp = resolve));
  if (head === 0) caughtUp();
  const subscription = await bus.follow({
    context: 'access',
    afterPosition: 0,
    async handler({ event: access, position }) {
      if (access.type === 'SessionRevoked') {
        const now = Date.now();
        const at = Date.parse(access.occurredAt);
        forgetExpired(now);
        if (now - at < longestTokenLifeMs) {
          revokedAt.set(access.data.sessionId, at);
          for (const listener of listeners) listener(access.data);
        }
      }
      if (position >= head) caughtUp();
    },
  });
  await ready;
  log.debug({ revokedSessions: revokedAt.size }, 'session revocations loaded');

  return {
    isRevoked: (sessionId) => revokedAt.has(sessionId),
    onRevoked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    stop: () => subscription.stop(),
  };
};
