import { describe, expect, it } from 'vitest';
import { createMembershipMap } from './membership.map.ts';
import { chatMembersAdded, directChatCreated, groupChatCreated } from '../test/support/events.ts';

describe('membership map', () => {
  it('indexes direct chats by pair, in either order', () => {
    const map = createMembershipMap();
    map.apply(directChatCreated('c1', 'alice', 'bob'));
    expect(map.directChatBetween('bob', 'alice')).toBe('c1');
    expect(map.directChatBetween('alice', 'carol')).toBeUndefined();
    expect(map.isMember('c1', 'alice')).toBe(true);
    expect(map.isMember('c1', 'carol')).toBe(false);
    expect(map.chat('c1')?.isGroup).toBe(false);
  });

  it('contacts are everyone sharing a chat, without the user and without duplicates', () => {
    const map = createMembershipMap();
    map.apply(directChatCreated('c1', 'alice', 'bob'));
    map.apply(groupChatCreated('g1', ['alice', 'bob', 'carol']));
    map.apply(directChatCreated('c2', 'dave', 'erin'));
    expect(map.contactsOf('alice').sort()).toEqual(['bob', 'carol']);
    expect(map.contactsOf('dave')).toEqual(['erin']);
    expect(map.contactsOf('nobody')).toEqual([]);
  });

  it('ChatMembersAdded reports only new members with the members before', () => {
    const map = createMembershipMap();
    map.apply(groupChatCreated('g1', ['alice', 'bob']));
    const change = map.apply(chatMembersAdded('g1', ['bob', 'carol'], 'alice'));
    expect(change).toEqual({
      chatId: 'g1',
      isGroup: true,
      added: ['carol'],
      removed: [],
      previous: ['alice', 'bob'],
    });
    expect(map.contactsOf('carol').sort()).toEqual(['alice', 'bob']);
    expect(map.chat('g1')?.isGroup).toBe(true);
  });

  it('replaying the same creation changes nothing (idempotent)', () => {
    const map = createMembershipMap();
    const created = groupChatCreated('g1', ['alice', 'bob']);
    map.apply(created);
    expect(map.apply(created)).toEqual({
      chatId: 'g1',
      isGroup: true,
      added: [],
      removed: [],
      previous: ['alice', 'bob'],
    });
  });

  it('ignores members added to an unknown chat and pair claims', () => {
    const map = createMembershipMap();
    expect(map.apply(chatMembersAdded('ghost', ['alice'], 'bob'))).toBeNull();
    expect(map.chat('ghost')).toBeUndefined();
    expect(
      map.apply({
        eventId: 'e1',
        streamId: 'pair-a-b',
        occurredAt: new Date().toISOString(),
        schemaVersion: 1,
        type: 'DirectPairClaimed',
        data: { chatId: 'c9', members: ['a', 'b'] },
      }),
    ).toBeNull();
    expect(map.directChatBetween('a', 'b')).toBeUndefined();
  });
});
