import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger, PresenceStore } from '@veil/ports';
import { deleteRedisKeysUnder, redisUrl, uniquePrefix } from '@veil/test-env';
import { createRedisPresence } from './redis-presence.ts';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

/** Real Redis on loopback: the sweeping of crashed replicas (the transitions: the presence contract). */
describe('redis presence', () => {
  const prefix = `${uniquePrefix('rt')}:`;
  const clients: Redis[] = [];
  const stores: PresenceStore[] = [];

  const replica = async (instanceId: string, ttlSeconds = 0.6) => {
    const redis = new Redis(redisUrl());
    clients.push(redis);
    const expired: string[][] = [];
    /** When each report of `expired` said its users were last seen. */
    const expiredAt: number[] = [];
    const revived: string[][] = [];
    const waiters: (() => void)[] = [];
    const store = createRedisPresence({
      redis,
      keyPrefix: prefix,
      instanceId,
      ttlSeconds,
      now: Date.now,
      log: quiet,
    });
    await store.start(
      (ids, at) => (expired.push(ids), expiredAt.push(at), waiters.splice(0).forEach((w) => w())),
      (ids) => (revived.push(ids), waiters.splice(0).forEach((w) => w())),
    );
    stores.push(store);
    /** Resolves when `check` holds after an upkeep report; the test's own timeout bounds the wait. */
    const until = async (check: () => boolean) => {
      while (!check()) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    return { redis, store, expired, expiredAt, revived, until };
  };

  afterEach(async () => {
    await Promise.allSettled(stores.splice(0).map((s) => s.stop()));
    for (const c of clients.splice(0)) c.disconnect();
    await deleteRedisKeysUnder(redisUrl(), prefix);
  });

  it("a silent replica's users are swept and reported offline by a live one, last seen at the sweep", async () => {
    const live = await replica('live');
    const doomed = await replica('doomed');
    await doomed.store.connect('carol');
    await doomed.store.connect('dave');
    await live.store.connect('dave'); // dave is also on a live replica: not reported
    // Crash: the connection dies without any cleanup, so the heartbeat stops.
    doomed.redis.disconnect();
    await doomed.store.stop().catch(() => undefined);
    const crashedAt = Date.now();

    await live.until(() => live.expired.flat().includes('carol'));
    expect(live.expired.flat()).toEqual(['carol']);
    expect(await live.store.onlineAmong(['carol', 'dave'])).toEqual(['dave']);
    const [sweptAt] = live.expiredAt as [number];
    expect(sweptAt).toBeGreaterThanOrEqual(crashedAt);
    expect(await live.store.lastSeenAmong(['carol', 'dave'])).toEqual(new Map([['carol', sweptAt]]));
  });

  it('a replica swept while alive puts its users back and reports them revived', async () => {
    const a = await replica('a');
    const b = await replica('b');
    await a.store.connect('erin');
    // Simulate a stall longer than the TTL: a's heartbeat key keeps vanishing until b sweeps a.
    const swept = b.until(() => b.expired.flat().includes('erin'));
    let stalled = true;
    void swept.then(() => (stalled = false));
    while (stalled) {
      await a.redis.del(`${prefix}presence:hb:a`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await a.until(() => a.revived.flat().includes('erin'));
    expect(await b.store.onlineAmong(['erin'])).toEqual(['erin']);
    // The restored count is a's real one: its one disconnect takes erin offline.
    expect(await a.store.disconnect('erin', Date.now())).toBe(true);
  });

  it('a restart with the same instance id clears its stale entries', async () => {
    const first = await replica('same');
    await first.store.connect('frank');
    first.redis.disconnect();
    await first.store.stop().catch(() => undefined);
    const restarted = await replica('same');
    expect(restarted.expired.flat()).toEqual(['frank']);
    expect(await restarted.store.onlineAmong(['frank'])).toEqual([]);
    expect(await restarted.store.lastSeenAmong(['frank'])).toEqual(
      new Map([['frank', restarted.expiredAt[0]]]),
    );
  });
});
