import { describe, expect, it } from 'vitest';
import { blocksStreamId, limits, type UserEvent } from '@veil/contracts';
import { blocksDecider, type BlocksState } from './blocks.decider.ts';

const code = (c: string) => expect.objectContaining({ code: c });
const fold = (events: { type: 'UserBlocked' | 'UserUnblocked'; blockedUserId: string }[]): BlocksState =>
  events.reduce(
    (state, { type, blockedUserId }) =>
      blocksDecider.evolve(state, {
        eventId: 'e',
        schemaVersion: 1,
        type,
        streamId: blocksStreamId('alice'),
        occurredAt: '2026-01-01T00:00:00.000Z',
        data: { userId: 'alice', blockedUserId },
      } as UserEvent),
    blocksDecider.initialState(),
  );

describe('deciding a block', () => {
  it('blocks someone once, and a second block records nothing', () => {
    const none = blocksDecider.initialState();
    expect(blocksDecider.decide({ type: 'Block', userId: 'alice', otherUserId: 'bob' }, none)).toEqual([
      { type: 'UserBlocked', data: { userId: 'alice', blockedUserId: 'bob' } },
    ]);
    const blocked = fold([{ type: 'UserBlocked', blockedUserId: 'bob' }]);
    expect(blocked.blocked).toEqual(['bob']);
    expect(blocksDecider.decide({ type: 'Block', userId: 'alice', otherUserId: 'bob' }, blocked)).toEqual([]);
  });

  it('unblocks only someone blocked', () => {
    const blocked = fold([{ type: 'UserBlocked', blockedUserId: 'bob' }]);
    expect(blocksDecider.decide({ type: 'Unblock', userId: 'alice', otherUserId: 'bob' }, blocked)).toEqual([
      { type: 'UserUnblocked', data: { userId: 'alice', blockedUserId: 'bob' } },
    ]);
    expect(blocksDecider.decide({ type: 'Unblock', userId: 'alice', otherUserId: 'carol' }, blocked)).toEqual(
      [],
    );
    const unblocked = fold([
      { type: 'UserBlocked', blockedUserId: 'bob' },
      { type: 'UserBlocked', blockedUserId: 'carol' },
      { type: 'UserUnblocked', blockedUserId: 'bob' },
    ]);
    expect(unblocked.blocked).toEqual(['carol']);
  });

  it('refuses blocking oneself and a list past its limit', () => {
    const none = blocksDecider.initialState();
    expect(() =>
      blocksDecider.decide({ type: 'Block', userId: 'alice', otherUserId: 'alice' }, none),
    ).toThrow(code('VALIDATION_FAILED'));
    const full = { blocked: Array.from({ length: limits.blockedUsersMax }, (_, i) => `u${i}`) };
    expect(() => blocksDecider.decide({ type: 'Block', userId: 'alice', otherUserId: 'bob' }, full)).toThrow(
      code('VALIDATION_FAILED'),
    );
    // Unblocking still works on a full list.
    expect(blocksDecider.decide({ type: 'Unblock', userId: 'alice', otherUserId: 'u0' }, full)).toHaveLength(
      1,
    );
  });
});
