import type { Redis } from 'ioredis';

import type { Logger, PresenceStore } from '@veil/ports';
import {
  connectScript,
  disconnectScript,
  heartbeatScript,
  reassertScript,
  sweepScript,
} from './redis-presence.scripts.ts';
import { script } from './redis-script.ts';

/**
 * Presence shared by every replica through Redis. Each replica counts its sockets per user under
 * its own instance id and keeps a heartbeat key alive; a replica that crashes stops refreshing it,
 * and a live replica's sweeper removes the dead one's entries and reports who went offline.
 * Upper bound for a crashed replica's users to go offline: ttl + ttl/3 (one sweep period).
 */
export interface RedisPresenceOptions {
  redis: Redis;
  keyPrefix: string;
  instanceId: string;
  ttlSeconds: number;
  /** The server's clock (ms): a swept replica's users were last seen at the sweep. */
  now: () => number;
  log: Logger;
}

export const createRedisPresence = (options: RedisPresenceOptions): PresenceStore => {
  const { redis, instanceId, now, log } = options;
  const p = `${options.keyPrefix}presence:`;
  const keys = {
    user: (userId: string) => `${p}user:${userId}`,
    instance: (id: string) => `${p}inst:${id}`,
    heartbeat: (id: string) => `${p}hb:${id}`,
    instances: `${p}instances`,
    lastSeen: `${p}last-seen`,
  };
  const ttlMs = Math.max(1, Math.round(options.ttlSeconds * 1000));
  const periodMs = Math.max(100, Math.floor(ttlMs / 3));
  const run = {
    connect: script(redis, connectScript),
    disconnect: script(redis, disconnectScript),
    reassert: script(redis, reassertScript),
    heartbeat: script(redis, heartbeatScript),
    sweep: script(redis, sweepScript),
  };
  /** This replica's own socket counts: the truth to restore if it is ever swept while alive. */
  const local = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let tick: Promise<void> = Promise.resolve();
  let handlers: { onExpired(ids: string[], at: number): void; onRevived(ids: string[]): void } | undefined;

  /** Removes an instance's entries; the users it leaves offline were last seen at `at`. */
  const sweep = async (id: string, force: boolean, at: number): Promise<string[]> =>
    (await run.sweep(
      [keys.heartbeat(id), keys.instance(id), keys.instances, keys.lastSeen],
      [id, `${p}user:`, force ? '1' : '0', at],
    )) as string[];

  const heartbeat = async () => {
    const unregistered =
      (await run.heartbeat([keys.heartbeat(instanceId), keys.instances], [ttlMs, instanceId])) === 1;
    if (!unregistered) return;
    // Swept while alive (a stall longer than the TTL): put our live sockets back.
    const revived: string[] = [];
    for (const [userId, count] of local) {
      const came = await run.reassert(
        [keys.user(userId), keys.instance(instanceId)],
        [instanceId, userId, count],
      );
      if (came === 1) revived.push(userId);
    }
    if (revived.length > 0) {
      log.warn({ instanceId, users: revived.length }, 'presence entries were swept while alive; restored');
      handlers?.onRevived(revived);
    }
  };

  const sweepDead = async () => {
    const others = ((await redis.smembers(keys.instances)) as string[]).filter((id) => id !== instanceId);
    if (others.length === 0) return;
    const pipeline = redis.pipeline();
    for (const id of others) pipeline.exists(keys.heartbeat(id));
    const results = (await pipeline.exec()) ?? [];
    for (const [index, id] of others.entries()) {
      const [error, exists] = results[index] ?? [null, 1];
      if (error || exists === 1) continue;
      const at = now();
      const offline = await sweep(id, false, at);
      if (offline.length > 0) {
        log.info({ deadInstance: id, users: offline.length }, 'swept a silent replica');
        handlers?.onExpired(offline, at);
      }
    }
  };

  const loop = () => {
    if (!running) return;
    tick = (async () => {
      try {
        await heartbeat();
        await sweepDead();
      } catch (error) {
        log.warn({ err: error }, 'presence upkeep failed; retrying next period');
      }
    })();
    timer = setTimeout(() => void tick.then(loop), periodMs);
  };

  return {
    async connect(userId) {
      local.set(userId, (local.get(userId) ?? 0) + 1);
      const total = await run.connect([keys.user(userId), keys.instance(instanceId)], [instanceId, userId]);
      return total === 1;
    },
    async disconnect(userId, at) {
      const count = (local.get(userId) ?? 0) - 1;
      if (count > 0) local.set(userId, count);
      else local.delete(userId);
      const total = await run.disconnect(
        [keys.user(userId), keys.instance(instanceId), keys.lastSeen],
        [instanceId, userId, at],
      );
      return total === 0;
    },
    async onlineAmong(userIds) {
      if (userIds.length === 0) return [];
      const pipeline = redis.pipeline();
      for (const id of userIds) pipeline.hlen(keys.user(id));
      const results = (await pipeline.exec()) ?? [];
      return userIds.filter((_, i) => {
        const [error, fields] = results[i] ?? [null, 0];
        return !error && Number(fields) > 0;
      });
    },
    async lastSeenAmong(userIds) {
      const known = new Map<string, number>();
      if (userIds.length === 0) return known;
      const times = await redis.hmget(keys.lastSeen, ...userIds);
      for (const [i, at] of times.entries()) if (at !== null) known.set(userIds[i]!, Number(at));
      return known;
    },
    async start(onExpired, onRevived) {
      handlers = { onExpired, onRevived };
      running = true;
      // A previous process with this id may have left entries (crash + quick restart): clear them.
      const at = now();
      const stale = await sweep(instanceId, true, at);
      if (stale.length > 0) onExpired(stale, at);
      await heartbeat();
      loop();
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      timer = undefined;
      await tick;
      handlers = undefined;
      // Sockets were closed before this (their disconnects already counted down); drop what is left.
      await sweep(instanceId, true, now());
      await redis.del(keys.heartbeat(instanceId));
      local.clear();
    },
  };
};
