import { describe, expect, it } from 'vitest';
import { createIdGenerator } from './ids.ts';

describe('ids', () => {
  it('are unique, ordered and well spread across the pool refills', () => {
    const ids = createIdGenerator();
    const made = Array.from({ length: 20_000 }, () => ids.next());
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    // The random part uses every one of the 32 characters (a stuck pool would not).
    const randomChars = new Set(made.flatMap((id) => [...id.slice(10)]));
    expect(randomChars.size).toBe(32);
  });

  it('differ between generators started in the same millisecond', () => {
    const [a, b] = [createIdGenerator(), createIdGenerator()];
    expect(a.next().slice(10)).not.toBe(b.next().slice(10));
  });
});
