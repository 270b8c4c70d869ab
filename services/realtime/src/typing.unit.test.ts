import { describe, expect, it } from 'vitest';
import { createMembershipMap } from './membership.map.ts';
import { directChatCreated, groupChatCreated } from '../test/support/events.ts';
import { resolveTypingChat, typingTargetId } from './typing.ts';

describe('typingTargetId', () => {
  it('reads every shape a target comes in: an id, {chatId} or {to}', () => {
    expect(typingTargetId('u2')).toBe('u2');
    expect(typingTargetId({ chatId: 'c1' })).toBe('c1');
    expect(typingTargetId({ to: 'u2' })).toBe('u2');
  });

  it('rejects anything else', () => {
    for (const bad of [undefined, null, 42, {}, { to: 7 }, 'has space', 'a.b', { chatId: ['c1'] }]) {
      expect(typingTargetId(bad)).toBeUndefined();
    }
  });
});

describe('resolveTypingChat', () => {
  const map = createMembershipMap();
  map.apply(directChatCreated('d1', 'alice', 'bob'));
  map.apply(groupChatCreated('g1', ['alice', 'bob', 'carol']));
  let lookups = 0;
  // The projection's lookups wait for the log on a miss; here the map is complete, so they just read it.
  const membership = {
    chat: map.chat,
    directChatBetween: map.directChatBetween,
    lookupChat: async (id: string) => (lookups++, map.chat(id)),
    lookupDirectChat: async (a: string, b: string) => (lookups++, map.directChatBetween(a, b)),
  };

  it('a chat id the user belongs to is that chat', async () => {
    expect(await resolveTypingChat(membership, 'carol', 'g1')).toBe('g1');
  });

  it("the other user's id is their one-to-one chat", async () => {
    expect(await resolveTypingChat(membership, 'alice', 'bob')).toBe('d1');
  });

  it('a chat the user is not in, or a user without a shared direct chat, resolves to nothing', async () => {
    lookups = 0;
    expect(await resolveTypingChat(membership, 'carol', 'd1')).toBeUndefined();
    expect(await resolveTypingChat(membership, 'carol', 'alice')).toBeUndefined();
    expect(lookups).toBe(4); // each miss asked the (waiting) lookups before giving up
  });
});
