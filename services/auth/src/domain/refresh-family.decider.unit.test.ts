import { describe, expect, it } from 'vitest';
import { refreshFamilyStreamId, type AuthEvent } from '@veil/contracts';
import {
  refreshFamilyDecider,
  type RefreshFamilyCommand,
  type RefreshFamilyState,
} from './refresh-family.decider.ts';

const code = (c: string) => expect.objectContaining({ code: c });
const next = { tokenId: 't2', tokenDigest: 'digest-2', expiresAt: '2026-02-01T00:00:00.000Z' };
const issued: AuthEvent = {
  type: 'RefreshTokenIssued',
  data: {
    userId: 'alice',
    familyId: 'f',
    tokenId: 't1',
    tokenDigest: 'digest-1',
    expiresAt: '2026-01-31T00:00:00.000Z',
  },
  eventId: 'e1',
  streamId: refreshFamilyStreamId('f'),
  occurredAt: '2026-01-01T00:00:00.000Z',
  schemaVersion: 1,
};
const live: RefreshFamilyState = refreshFamilyDecider.evolve(refreshFamilyDecider.initialState(), issued);
const now = new Date('2026-01-15T00:00:00.000Z');
const rotate = (overrides: Partial<Extract<RefreshFamilyCommand, { type: 'RotateToken' }>> = {}) =>
  ({
    type: 'RotateToken',
    familyId: 'f',
    presented: { tokenId: 't1', digest: 'digest-1' },
    account: { disabled: false },
    now,
    next,
    ...overrides,
  }) as const;

describe('deciding on a refresh-token family', () => {
  it('starts a family once, and rotates its newest token into the next', () => {
    const start = { type: 'StartFamily', userId: 'alice', familyId: 'f', next } as const;
    expect(refreshFamilyDecider.decide(start, refreshFamilyDecider.initialState())).toEqual([
      { type: 'RefreshTokenIssued', data: { userId: 'alice', familyId: 'f', ...next } },
    ]);
    expect(() => refreshFamilyDecider.decide(start, live)).toThrow(code('VERSION_CONFLICT'));
    expect(refreshFamilyDecider.decide(rotate(), live)).toEqual([
      { type: 'RefreshTokenIssued', data: { userId: 'alice', familyId: 'f', ...next } },
    ]);
  });

  it('revokes the whole family when an older token comes back (it was copied)', () => {
    expect(
      refreshFamilyDecider.decide(rotate({ presented: { tokenId: 't0', digest: 'digest-0' } }), live),
    ).toEqual([{ type: 'RefreshFamilyRevoked', data: { userId: 'alice', familyId: 'f', reason: 'reuse' } }]);
  });

  it('refuses an unknown or revoked family, a forged token, an expired one, and an account disabled or whose password changed', () => {
    expect(() => refreshFamilyDecider.decide(rotate(), refreshFamilyDecider.initialState())).toThrow(
      code('TOKEN_INVALID'),
    );
    expect(() => refreshFamilyDecider.decide(rotate(), { ...live, revoked: true })).toThrow(
      code('TOKEN_INVALID'),
    );
    expect(() =>
      refreshFamilyDecider.decide(rotate({ presented: { tokenId: 't1', digest: 'forged' } }), live),
    ).toThrow(code('TOKEN_INVALID'));
    expect(() =>
      refreshFamilyDecider.decide(rotate({ now: new Date('2026-02-01T00:00:00.000Z') }), live),
    ).toThrow(code('TOKEN_EXPIRED'));
    expect(() => refreshFamilyDecider.decide(rotate({ account: null }), live)).toThrow(code('TOKEN_INVALID'));
    expect(() => refreshFamilyDecider.decide(rotate({ account: { disabled: true } }), live)).toThrow(
      code('TOKEN_INVALID'),
    );
    const changed = { disabled: false, passwordChangedAt: '2026-01-02T00:00:00.000Z' };
    expect(() => refreshFamilyDecider.decide(rotate({ account: changed }), live)).toThrow(
      code('TOKEN_INVALID'),
    );
  });

  it('ends a live family on logout, and records nothing for one already ended', () => {
    const end = { type: 'EndFamily', familyId: 'f', reason: 'logout' } as const;
    expect(refreshFamilyDecider.decide(end, live)).toEqual([
      { type: 'RefreshFamilyRevoked', data: { userId: 'alice', familyId: 'f', reason: 'logout' } },
    ]);
    expect(refreshFamilyDecider.decide(end, { ...live, revoked: true })).toEqual([]);
  });
});
