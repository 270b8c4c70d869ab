import { DomainError, limits } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { decideClose, decideJoin, decideRelay, openLink, parseLinkRecord } from './link.rules.ts';

const t0 = 1_000_000;
const link = openLink({
  userId: 'alice',
  socketId: 'new',
  commitment: 'c',
  now: t0,
  ttlMs: limits.linkTtlSeconds * 1000,
});
const codeOf = (work: () => unknown) => {
  try {
    work();
    return 'accepted';
  } catch (error) {
    return error instanceof DomainError ? error.code : 'crashed';
  }
};

describe('browser link rules', () => {
  it('opens for two minutes, bound to the opener', () => {
    expect(link).toMatchObject({ userId: 'alice', opener: 'new', joiner: null, state: 'open' });
    expect(link.expiresAt - t0).toBe(120_000);
  });

  it('admits one joiner of the same user before the expiry', () => {
    const joined = decideJoin(link, { userId: 'alice', socketId: 'old', now: t0 + 119_999 });
    expect(joined).toMatchObject({ joiner: 'old', state: 'joined' });
    expect(codeOf(() => decideJoin(joined, { userId: 'alice', socketId: 'other', now: t0 }))).toBe(
      'LINK_USED',
    );
    expect(codeOf(() => decideJoin(link, { userId: 'alice', socketId: 'old', now: t0 + 120_000 }))).toBe(
      'LINK_EXPIRED',
    );
    expect(codeOf(() => decideJoin(link, { userId: 'mallory', socketId: 'm', now: t0 }))).toBe(
      'LINK_NOT_FOUND',
    );
    expect(codeOf(() => decideJoin(null, { userId: 'alice', socketId: 'old', now: t0 }))).toBe(
      'LINK_NOT_FOUND',
    );
    expect(codeOf(() => decideJoin(link, { userId: 'alice', socketId: 'new', now: t0 }))).toBe('LINK_USED');
  });

  it('relays between the two parties only, a bounded number of times', () => {
    let record = decideJoin(link, { userId: 'alice', socketId: 'old', now: t0 });
    expect(decideRelay(record, { userId: 'alice', socketId: 'old', now: t0 }).to).toBe('new');
    expect(decideRelay(record, { userId: 'alice', socketId: 'new', now: t0 }).to).toBe('old');
    expect(codeOf(() => decideRelay(record, { userId: 'alice', socketId: 'third', now: t0 }))).toBe(
      'LINK_NOT_FOUND',
    );
    expect(codeOf(() => decideRelay(link, { userId: 'alice', socketId: 'new', now: t0 }))).toBe(
      'VALIDATION_FAILED',
    );
    for (let i = 0; i < limits.linkMessagesMax; i += 1)
      record = decideRelay(record, { userId: 'alice', socketId: 'old', now: t0 }).next;
    expect(codeOf(() => decideRelay(record, { userId: 'alice', socketId: 'old', now: t0 }))).toBe(
      'RATE_LIMITED',
    );
  });

  it('closes once, telling the other party, and then refuses everything', () => {
    const joined = decideJoin(link, { userId: 'alice', socketId: 'old', now: t0 });
    const closed = decideClose(joined, { userId: 'alice', socketId: 'new' });
    expect(closed?.notify).toBe('old');
    expect(decideClose(closed!.next, { userId: 'alice', socketId: 'old' })).toBeNull();
    expect(decideClose(link, { userId: 'alice', socketId: 'new' })?.notify).toBeNull();
    expect(codeOf(() => decideRelay(closed!.next, { userId: 'alice', socketId: 'old', now: t0 }))).toBe(
      'LINK_USED',
    );
    expect(codeOf(() => decideJoin(closed!.next, { userId: 'alice', socketId: 'x', now: t0 }))).toBe(
      'LINK_USED',
    );
  });

  it('reads a stored record back, and anything else as no link', () => {
    expect(parseLinkRecord(JSON.stringify(link))).toEqual(link);
    expect(parseLinkRecord('not json')).toBeNull();
    expect(parseLinkRecord('{"v":1}')).toBeNull();
  });
});
