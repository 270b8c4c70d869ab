import { describe, expect, it } from 'vitest';
import { blockedBetween, checkMayReach } from './blocks.ts';

const alice = { _id: 'alice', blocked: ['mallory'] };
const bob = { _id: 'bob' };
const mallory = { _id: 'mallory', blocked: [] };
const carol = { _id: 'carol', blocked: ['bob'] };

describe('blocks between people', () => {
  it('holds whichever of the two blocked', () => {
    expect(blockedBetween(alice, mallory)).toBe(true);
    expect(blockedBetween(mallory, alice)).toBe(true);
    expect(blockedBetween(alice, bob)).toBe(false);
  });

  it('refuses reaching anyone blocked either way, with one answer for both', () => {
    expect(() => checkMayReach(mallory, [bob, alice])).toThrow(
      expect.objectContaining({ code: 'CONTACT_UNAVAILABLE', message: 'This user is not available' }),
    );
    expect(() => checkMayReach(alice, [mallory])).toThrow(
      expect.objectContaining({ code: 'CONTACT_UNAVAILABLE' }),
    );
    expect(() => checkMayReach(bob, [carol])).toThrow(
      expect.objectContaining({ code: 'CONTACT_UNAVAILABLE' }),
    );
    expect(() => checkMayReach(alice, [bob, alice])).not.toThrow();
  });
});
