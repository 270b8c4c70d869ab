import type { ExpiringRecords } from '@veil/ports';

interface Entry {
  value: string;
  version: number;
  expiresAt: number;
}

/** One replica alone: records in a map of this process, dropped when they expire. */
export const createMemoryRecords = (now: () => number = Date.now): ExpiringRecords => {
  const entries = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  /** Expired entries go when new ones come, so the map never outgrows what is live. */
  const sweep = () => {
    const at = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= at) entries.delete(key);
  };
  return {
    async create(key, value, ttlMs) {
      sweep();
      if (live(key)) return false;
      entries.set(key, { value, version: 1, expiresAt: now() + ttlMs });
      return true;
    },
    async read(key) {
      const entry = live(key);
      return entry ? { value: entry.value, version: entry.version } : null;
    },
    async replace(key, version, value) {
      const entry = live(key);
      if (entry?.version !== version) return false;
      entries.set(key, { ...entry, value, version: version + 1 });
      return true;
    },
  };
};
