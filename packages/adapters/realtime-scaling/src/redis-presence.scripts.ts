/**
 * Lua scripts behind the Redis presence store. Each runs atomically, so "first socket anywhere"
 * and "last socket anywhere" are decided once even when replicas race.
 *
 * Keys (P = prefix):  P presence:user:<userId>   hash  instanceId -> socket count (no zero fields)
 *                     P presence:inst:<id>       set   users with sockets on that instance
 *                     P presence:hb:<id>         string, expires: the instance's heartbeat
 *                     P presence:instances       set   instances that have registered
 *                     P presence:last-seen       hash  userId -> when their last socket went (ms)
 * The sweep script touches keys derived from a prefix argument, so this targets a standalone
 * Redis (or Sentinel), not Redis Cluster. See docs/realtime.md.
 */

/** KEYS: user hash, instance set. ARGV: instanceId, userId. Returns the user's total sockets after. */
export const connectScript = `
redis.call('HINCRBY', KEYS[1], ARGV[1], 1)
redis.call('SADD', KEYS[2], ARGV[2])
local total = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do total = total + tonumber(v) end
return total
`;

/**
 * KEYS: user hash, instance set, last-seen hash. ARGV: instanceId, userId, now (ms).
 * Returns the user's total sockets after (at 0 `now` is their last-seen time), or -1 when this
 * instance's entry was already swept (its users were announced offline then, and their last-seen
 * time recorded; nothing to announce now).
 */
export const disconnectScript = `
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return -1 end
local n = redis.call('HINCRBY', KEYS[1], ARGV[1], -1)
if n <= 0 then
  redis.call('HDEL', KEYS[1], ARGV[1])
  redis.call('SREM', KEYS[2], ARGV[2])
end
local total = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do total = total + tonumber(v) end
if total == 0 then redis.call('HSET', KEYS[3], ARGV[2], ARGV[3]) end
return total
`;

/**
 * After this instance was swept while alive: puts one user's local count back.
 * KEYS: user hash, instance set. ARGV: instanceId, userId, count.
 * Returns 1 when the user had no entry anywhere before (so they came back online), else 0.
 */
export const reassertScript = `
local before = 0
for _, v in ipairs(redis.call('HVALS', KEYS[1])) do before = before + tonumber(v) end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
redis.call('SADD', KEYS[2], ARGV[2])
if before == 0 then return 1 end
return 0
`;

/** KEYS: heartbeat key, instances set. ARGV: ttl ms, instanceId. Returns 1 if the instance was not registered. */
export const heartbeatScript = `
redis.call('SET', KEYS[1], '1', 'PX', ARGV[1])
return redis.call('SADD', KEYS[2], ARGV[2])
`;

/**
 * Removes a silent instance's entries. KEYS: its heartbeat key, its instance set, instances set,
 * last-seen hash. ARGV: instanceId, user-hash key prefix, force ('1' sweeps even with a live
 * heartbeat: own stale entries at start), now (ms). Returns the users left with no socket
 * anywhere; they were last seen `now`.
 */
export const sweepScript = `
if ARGV[3] ~= '1' and redis.call('EXISTS', KEYS[1]) == 1 then return {} end
local offline = {}
for _, uid in ipairs(redis.call('SMEMBERS', KEYS[2])) do
  local key = ARGV[2] .. uid
  redis.call('HDEL', key, ARGV[1])
  local total = 0
  for _, v in ipairs(redis.call('HVALS', key)) do total = total + tonumber(v) end
  if total <= 0 then
    redis.call('DEL', key)
    redis.call('HSET', KEYS[4], uid, ARGV[4])
    table.insert(offline, uid)
  end
end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return offline
`;
