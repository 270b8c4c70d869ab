import { describe, expect, it } from 'vitest';
import { visibleSeenBy } from './receipts-visibility.ts';

const seenBy = { alice: true, bob: true, carol: true } as const;
const off = new Set(['carol', 'dave']);
const sends = (id: string) => !off.has(id);

describe('which read receipts a reader sees', () => {
  it("shows those of readers who send them to a reader who sends them, and one's own always", () => {
    expect(visibleSeenBy(seenBy, 'alice', sends)).toEqual({ alice: true, bob: true });
    expect(visibleSeenBy(seenBy, 'carol', sends)).toEqual({ carol: true });
    expect(visibleSeenBy(seenBy, 'dave', sends)).toEqual({});
  });
});
