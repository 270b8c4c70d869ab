import type { Redis } from 'ioredis';
import { dedupeRetentionSeconds, type EventDedupe } from '../dedupe.ts';

/** Claims shared by every replica: SET NX with a TTL, so a redelivered event is emitted once. */
export const createRedisDedupe = (redis: Redis, keyPrefix: string): EventDedupe => ({
  async claim(eventId) {
    const reply = await redis.set(`${keyPrefix}fanout:${eventId}`, '1', 'EX', dedupeRetentionSeconds, 'NX');
    return reply === 'OK';
  },
});
