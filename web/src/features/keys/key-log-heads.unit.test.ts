import type { KeyLogEntry } from '@veil/crypto';
import { describe, expect, it } from 'vitest';
import { headsNotIn } from './key-log-heads.ts';
import { commitmentHolds, isOlderEdit } from './message-verification.ts';

const hash = (n: number) => n.toString(16).padStart(64, '0');
const logOf = (...hashes: number[]) => hashes.map((n) => ({ hash: hash(n) }) as KeyLogEntry);

describe('split views (headsNotIn)', () => {
  it('accepts a named head that is any entry of the log this reader sees, older ones included', () => {
    const logs = new Map([
      ['bob', logOf(1, 2, 3)],
      ['ann', logOf(7)],
    ]);
    expect(headsNotIn({ bob: hash(3), ann: hash(7) }, logs)).toEqual([]);
    // The sender saw Bob's log before his latest entry: no split, only an older view.
    expect(headsNotIn({ bob: hash(2) }, logs)).toEqual([]);
  });

  it('names each member whose named head is no entry of the log seen here, with what each side sees', () => {
    const logs = new Map([
      ['bob', logOf(1, 2)],
      ['me', logOf(5)],
    ]);
    expect(headsNotIn({ bob: hash(9), me: hash(6) }, logs)).toEqual([
      { member: 'bob', named: hash(9), seen: hash(2) },
      { member: 'me', named: hash(6), seen: hash(5) },
    ]);
  });

  it('leaves out a member whose log is not checked here (its own warning says so)', () => {
    expect(headsNotIn({ carol: hash(1) }, new Map())).toEqual([]);
  });
});

describe('key commitment (commitmentHolds)', () => {
  const v2 = { value: 'A'.repeat(88), signedAt: '2026-11-28T09:00:00.000Z', version: 2 as const };
  it('holds when the unwrapped key commits to the signed value, fails on another', () => {
    expect(commitmentHolds({ ...v2, keyCommitment: 'k1' }, 'k1')).toBe(true);
    expect(commitmentHolds({ ...v2, keyCommitment: 'k1' }, 'k2')).toBe(false);
    expect(commitmentHolds({ ...v2 }, 'k2')).toBe(false);
  });
  it('does not judge version 1 or what could not be unwrapped', () => {
    expect(commitmentHolds({ value: v2.value, signedAt: v2.signedAt }, 'k2')).toBe(true);
    expect(commitmentHolds({ ...v2, keyCommitment: 'k1' }, undefined)).toBe(true);
  });
});

describe('rolled-back edits (isOlderEdit)', () => {
  const edit = (counter: number, value = `v${counter}`.padEnd(88, 'A')) => ({
    value,
    signedAt: '2026-11-28T09:00:00.000Z',
    version: 2 as const,
    counter,
  });
  it('flags an edit whose counter is not past the edit shown now', () => {
    expect(isOlderEdit(edit(3), edit(5))).toBe(true);
    expect(isOlderEdit(edit(5, 'x'.padEnd(88, 'A')), edit(5))).toBe(true);
    expect(isOlderEdit(edit(6), edit(5))).toBe(false);
    // The same edit again (a redelivery) is no rollback.
    expect(isOlderEdit(edit(5), edit(5))).toBe(false);
    // Nothing to compare with: a first edit, or version 1.
    expect(isOlderEdit(edit(3), undefined)).toBe(false);
    expect(isOlderEdit({ value: 'A'.repeat(88), signedAt: '2026-11-28T09:00:00.000Z' }, edit(5))).toBe(false);
  });
});
