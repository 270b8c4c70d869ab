import { describe, expect, it } from 'vitest';
import { createMemoryPresence } from './presence.store.ts';

describe('memory presence', () => {
  it('reports the first connect and the last disconnect only', async () => {
    const store = createMemoryPresence();
    expect(await store.connect('alice')).toBe(true);
    expect(await store.connect('alice')).toBe(false);
    expect(await store.onlineAmong(['alice', 'bob'])).toEqual(['alice']);
    expect(await store.disconnect('alice')).toBe(false);
    expect(await store.disconnect('alice')).toBe(true);
    expect(await store.onlineAmong(['alice'])).toEqual([]);
  });

  it('a stray disconnect does not go negative or announce', async () => {
    const store = createMemoryPresence();
    expect(await store.disconnect('ghost')).toBe(false);
    expect(await store.connect('ghost')).toBe(true);
  });
});
