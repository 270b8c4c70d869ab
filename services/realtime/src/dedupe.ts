/**
 * Exactly-once delivery on top of an at-least-once consumer: the fan-out claims each event id
 * before emitting; a redelivered event finds its claim taken and is skipped. Shared across
 * replicas (Redis) when there are several, in memory otherwise.
 */
export interface EventDedupe {
  /** True the first time an id is claimed (within the retention window), false afterwards. */
  claim(eventId: string): Promise<boolean>;
}

/** Longer than any redelivery the bus can make (JetStream's ack wait times max deliveries). */
export const dedupeRetentionSeconds = 24 * 60 * 60;

/** One process: a bounded, insertion-ordered map; the oldest claims go first when it is full. */
export const createMemoryDedupe = (
  options: { maxEntries?: number; now?: () => number } = {},
): EventDedupe => {
  const maxEntries = options.maxEntries ?? 100_000;
  const now = options.now ?? Date.now;
  const claims = new Map<string, number>();
  return {
    async claim(eventId) {
      const at = now();
      const expiresAt = claims.get(eventId);
      if (expiresAt !== undefined && expiresAt > at) return false;
      claims.delete(eventId);
      claims.set(eventId, at + dedupeRetentionSeconds * 1000);
      while (claims.size > maxEntries) claims.delete(claims.keys().next().value!);
      return true;
    },
  };
};
