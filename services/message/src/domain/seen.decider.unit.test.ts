import { describe, expect, it } from 'vitest';
import { decideSeen, type SeenState } from './seen.decider.ts';

type Seen = Record<string, true>;
const state: SeenState = {
  messages: new Map<string, { chat: string; sender: string; seenBy: Seen }>([
    ['m1', { chat: 'c1', sender: 'alice', seenBy: {} }],
    ['m2', { chat: 'c1', sender: 'bob', seenBy: {} }],
    ['m3', { chat: 'c1', sender: 'alice', seenBy: { bob: true } }],
    ['m4', { chat: 'c2', sender: 'alice', seenBy: {} }],
  ]),
  members: new Map([
    ['c1', ['alice', 'bob']],
    ['c2', ['alice', 'carol']],
  ]),
};

describe('deciding read receipts', () => {
  it("records another member's message once, in the chat reported", () => {
    expect(
      decideSeen(
        'bob',
        [
          { chatId: 'c1', messageId: 'm1' },
          { chatId: 'c1', messageId: 'm1' },
        ],
        state,
      ),
    ).toEqual([{ messageId: 'm1', chatId: 'c1', userId: 'bob' }]);
  });

  it('drops own messages, ones already seen, unknown ones, a wrong chat and a chat that is not yours', () => {
    expect(
      decideSeen(
        'bob',
        [
          { chatId: 'c1', messageId: 'm2' },
          { chatId: 'c1', messageId: 'm3' },
          { chatId: 'c1', messageId: 'nope' },
          { chatId: 'c2', messageId: 'm1' },
          { chatId: 'c2', messageId: 'm4' },
        ],
        state,
      ),
    ).toEqual([]);
  });
});
