import { describe, expect, it } from 'vitest';
import { unreadableState } from './read-state.ts';

const published = { publicKey: 'CURRENT', publishedAt: '2026-03-01T10:00:00.000Z' };
const after = '2026-03-02T10:00:00.000Z';
const before = '2026-02-01T10:00:00.000Z';

describe('why a message cannot be read (unreadableState)', () => {
  it('says "no key here" when this browser holds no key for the account', () => {
    expect(unreadableState('no-key-fits', [], published, after)).toBe('no-key-here');
    expect(unreadableState('no-key-fits', [], null, after)).toBe('no-key-here');
  });

  it('says "key reset" for a message sealed before the current key was published', () => {
    expect(unreadableState('no-key-fits', ['CURRENT'], published, before)).toBe('key-reset');
    expect(unreadableState('no-key-fits', ['OLDER'], published, before)).toBe('key-reset');
    // Also in a browser with no key at all: restoring the current key would not open it.
    expect(unreadableState('no-key-fits', [], published, before)).toBe('key-reset');
  });

  it('says "no key here" when only the current key, which this browser lacks, could read it', () => {
    expect(unreadableState('no-key-fits', ['OLDER'], published, after)).toBe('no-key-here');
  });

  it('keeps "[Failed to decrypt]" for damaged messages and for what it cannot tell', () => {
    expect(unreadableState('no-key-fits', ['CURRENT'], published, after)).toBe('unreadable');
    expect(unreadableState('damaged', ['CURRENT'], published, before)).toBe('unreadable');
    expect(unreadableState('not-for-user', [], published, after)).toBe('unreadable');
    expect(unreadableState('no-key-fits', ['CURRENT'], null, before)).toBe('unreadable');
  });
});
