import type { Redis } from 'ioredis';

export type ScriptRunner = (keys: string[], args: (string | number)[]) => Promise<unknown>;

/** A Lua script run with EVALSHA, falling back to EVAL when the script cache was flushed (NOSCRIPT). */
export const script = (redis: Redis, lua: string): ScriptRunner => {
  let sha: string | undefined;
  return async (keys, args) => {
    sha ??= (await redis.script('LOAD', lua)) as string;
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!String((error as Error).message).includes('NOSCRIPT')) throw error;
      return redis.eval(lua, keys.length, ...keys, ...args);
    }
  };
};
