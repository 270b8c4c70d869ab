import { DomainError } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { decideRewrap, type RewrapState, type RewrapTarget } from './rewrap.decider.ts';

const target = (overrides: Partial<RewrapTarget> = {}): RewrapTarget => ({
  chat: 'c1',
  deleted: false,
  sealedFor: ['alice', 'bob'],
  rewrapped: undefined,
  ...overrides,
});

const state = (messages: Record<string, RewrapTarget>, members = ['alice', 'bob']): RewrapState => ({
  messages: new Map(Object.entries(messages)),
  members: new Map([['c1', members]]),
});

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof DomainError ? error.code : error;
  }
  return 'accepted';
};

describe('decideRewrap', () => {
  it('stores a member copy for each message sealed for them', () => {
    expect(decideRewrap('alice', [{ messageId: 'm1', encryptedKey: 'K1' }], state({ m1: target() }))).toEqual(
      [{ messageId: 'm1', chatId: 'c1', userId: 'alice', encryptedKey: 'K1' }],
    );
  });

  it('skips a deleted message and a copy stored already, so a retry is harmless', () => {
    const messages = {
      m1: target({ deleted: true }),
      m2: target({ rewrapped: 'K2' }),
      m3: target({ rewrapped: 'old' }),
    };
    const copies = [
      { messageId: 'm1', encryptedKey: 'K1' },
      { messageId: 'm2', encryptedKey: 'K2' },
      { messageId: 'm3', encryptedKey: 'K3' },
    ];
    expect(decideRewrap('alice', copies, state(messages)).map((copy) => copy.messageId)).toEqual(['m3']);
  });

  it('answers "not found" for an unknown message and for a chat the member is not in', () => {
    expect(refusal(() => decideRewrap('alice', [{ messageId: 'nope', encryptedKey: 'K' }], state({})))).toBe(
      'MESSAGE_NOT_FOUND',
    );
    expect(
      refusal(() =>
        decideRewrap('alice', [{ messageId: 'm1', encryptedKey: 'K' }], state({ m1: target() }, ['bob'])),
      ),
    ).toBe('MESSAGE_NOT_FOUND');
  });

  it('refuses a message never sealed for the member, and the same message twice in one batch', () => {
    const later = state({ m1: target({ sealedFor: ['bob'] }) }, ['alice', 'bob']);
    expect(refusal(() => decideRewrap('alice', [{ messageId: 'm1', encryptedKey: 'K' }], later))).toBe(
      'FORBIDDEN',
    );
    const twice = [
      { messageId: 'm1', encryptedKey: 'K' },
      { messageId: 'm1', encryptedKey: 'L' },
    ];
    expect(refusal(() => decideRewrap('alice', twice, state({ m1: target() })))).toBe('VALIDATION_FAILED');
  });
});
