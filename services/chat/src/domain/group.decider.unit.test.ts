import { describe, expect, it } from 'vitest';
import { chatStreamId, limits, type ChatEvent } from '@veil/contracts';
import { decideGroupChange, groupDecider, type GroupState } from './group.decider.ts';

const group: GroupState = {
  exists: true,
  isGroup: true,
  members: ['alice', 'bob', 'carol'],
  admins: ['alice'],
  disappearingSeconds: 0,
  name: 'Group',
  signedHead: null,
};
const code = (c: string) => expect.objectContaining({ code: c });

describe('deciding a group change', () => {
  it('lets an admin add new members only, remove one, promote one, rename and set the picture', () => {
    expect(
      decideGroupChange('alice', 'g', { kind: 'add', memberIds: ['bob', 'dave', 'dave'] }, group),
    ).toEqual({
      type: 'ChatMembersAdded',
      data: { chatId: 'g', members: ['dave'], addedBy: 'alice' },
    });
    expect(decideGroupChange('alice', 'g', { kind: 'remove', memberId: 'bob' }, group)?.type).toBe(
      'ChatMemberRemoved',
    );
    expect(decideGroupChange('alice', 'g', { kind: 'promote', memberId: 'bob' }, group)?.data).toEqual({
      chatId: 'g',
      memberId: 'bob',
      promotedBy: 'alice',
    });
    expect(decideGroupChange('alice', 'g', { kind: 'promote', memberId: 'alice' }, group)).toBeNull();
    expect(decideGroupChange('alice', 'g', { kind: 'rename', name: 'New' }, group)?.type).toBe(
      'GroupRenamed',
    );
    expect(decideGroupChange('alice', 'g', { kind: 'picture', pictureKey: null }, group)?.type).toBe(
      'GroupPictureChanged',
    );
  });

  it('refuses a member who is not an admin (403), a stranger and a direct chat', () => {
    for (const change of [
      { kind: 'add', memberIds: ['dave'] },
      { kind: 'remove', memberId: 'carol' },
      { kind: 'promote', memberId: 'carol' },
      { kind: 'rename', name: 'Mine now' },
    ] as const) {
      expect(() => decideGroupChange('bob', 'g', change, group)).toThrow(code('FORBIDDEN'));
      expect(() => decideGroupChange('mallory', 'g', change, group)).toThrow(code('CHAT_NOT_FOUND'));
    }
    const direct = { ...group, isGroup: false, members: ['alice', 'bob'], admins: [] };
    expect(() => decideGroupChange('alice', 'c', { kind: 'leave' }, direct)).toThrow(
      code('VALIDATION_FAILED'),
    );
    expect(() => decideGroupChange('alice', 'g', { kind: 'leave' }, { ...group, exists: false })).toThrow(
      code('CHAT_NOT_FOUND'),
    );
  });

  it('refuses adding only members, removing a stranger or oneself, and growing past the limit', () => {
    const refused = [
      { kind: 'add', memberIds: ['bob'] },
      { kind: 'remove', memberId: 'dave' },
      { kind: 'remove', memberId: 'alice' },
      { kind: 'promote', memberId: 'dave' },
    ] as const;
    for (const change of refused)
      expect(() => decideGroupChange('alice', 'g', change, group)).toThrow(code('VALIDATION_FAILED'));
    const many = Array.from({ length: limits.groupMaxMembers - 2 }, (_, i) => `u${i}`);
    expect(() => decideGroupChange('alice', 'g', { kind: 'add', memberIds: many }, group)).toThrow(
      code('VALIDATION_FAILED'),
    );
  });

  it('lets anyone leave; the last admin leaving promotes the longest-standing member', () => {
    expect(decideGroupChange('bob', 'g', { kind: 'leave' }, group)?.data).toEqual({
      chatId: 'g',
      memberId: 'bob',
      newAdmin: null,
    });
    expect(decideGroupChange('alice', 'g', { kind: 'leave' }, group)?.data).toEqual({
      chatId: 'g',
      memberId: 'alice',
      newAdmin: 'bob',
    });
    const twoAdmins = { ...group, admins: ['alice', 'carol'] };
    expect(decideGroupChange('alice', 'g', { kind: 'leave' }, twoAdmins)?.data).toMatchObject({
      newAdmin: null,
    });
    const alone = { ...group, members: ['alice'] };
    expect(decideGroupChange('alice', 'g', { kind: 'leave' }, alone)?.data).toMatchObject({ newAdmin: null });
  });
});

describe('deciding a disappearing timer', () => {
  const direct: GroupState = {
    exists: true,
    isGroup: false,
    members: ['alice', 'bob'],
    admins: [],
    disappearingSeconds: 0,
    name: 'Group',
    signedHead: null,
  };

  it('lets any member of a group or a one-to-one chat set an allowed value, recorded only when it changes', () => {
    expect(decideGroupChange('bob', 'g', { kind: 'timer', seconds: 3600 }, group)).toEqual({
      type: 'DisappearingTimerSet',
      data: { chatId: 'g', seconds: 3600, setBy: 'bob' },
    });
    expect(decideGroupChange('alice', 'd', { kind: 'timer', seconds: 300 }, direct)?.data).toEqual({
      chatId: 'd',
      seconds: 300,
      setBy: 'alice',
    });
    expect(decideGroupChange('alice', 'd', { kind: 'timer', seconds: 0 }, direct)).toBeNull();
    const set = { ...direct, disappearingSeconds: 604_800 };
    expect(decideGroupChange('bob', 'd', { kind: 'timer', seconds: 0 }, set)?.data).toMatchObject({
      seconds: 0,
    });
  });

  it('refuses a value outside the list and a stranger', () => {
    for (const seconds of [1, 299, 600, 604_801, 10 ** 9])
      expect(() => decideGroupChange('alice', 'd', { kind: 'timer', seconds }, direct)).toThrow(
        code('VALIDATION_FAILED'),
      );
    expect(() => decideGroupChange('mallory', 'd', { kind: 'timer', seconds: 300 }, direct)).toThrow(
      code('CHAT_NOT_FOUND'),
    );
  });

  it('folds the newest timer', () => {
    const meta = {
      eventId: 'e',
      streamId: chatStreamId('d'),
      occurredAt: '2026-01-01T00:00:00.000Z',
      schemaVersion: 1,
    };
    const events: ChatEvent[] = [
      {
        ...meta,
        type: 'DirectChatCreated',
        data: { chatId: 'd', members: ['alice', 'bob'], createdBy: 'alice' },
      },
      { ...meta, type: 'DisappearingTimerSet', data: { chatId: 'd', seconds: 300, setBy: 'bob' } },
      { ...meta, type: 'DisappearingTimerSet', data: { chatId: 'd', seconds: 86_400, setBy: 'alice' } },
    ];
    expect(events.reduce(groupDecider.evolve, groupDecider.initialState()).disappearingSeconds).toBe(86_400);
  });
});

describe('folding a group', () => {
  const meta = {
    eventId: 'e',
    streamId: chatStreamId('g'),
    occurredAt: '2026-01-01T00:00:00.000Z',
    schemaVersion: 1,
  };
  it('follows members and admins through adds, removals, promotions and a last admin leaving', () => {
    const events: ChatEvent[] = [
      {
        ...meta,
        type: 'GroupChatCreated',
        data: { chatId: 'g', name: 'G', members: ['alice', 'bob'], createdBy: 'alice' },
      },
      { ...meta, type: 'ChatMembersAdded', data: { chatId: 'g', members: ['carol'], addedBy: 'alice' } },
      { ...meta, type: 'ChatAdminPromoted', data: { chatId: 'g', memberId: 'carol', promotedBy: 'alice' } },
      { ...meta, type: 'ChatMemberRemoved', data: { chatId: 'g', memberId: 'carol', removedBy: 'alice' } },
      { ...meta, type: 'ChatMemberLeft', data: { chatId: 'g', memberId: 'alice', newAdmin: 'bob' } },
    ];
    const state = events.reduce(groupDecider.evolve, groupDecider.initialState());
    expect(state).toEqual({
      exists: true,
      isGroup: true,
      members: ['bob'],
      admins: ['bob'],
      disappearingSeconds: 0,
      name: 'G',
      signedHead: null,
    });
  });
});

describe('deciding a group command', () => {
  const none = groupDecider.initialState();
  const create = (memberIds: string[], name = 'Trip') =>
    groupDecider.decide({ type: 'CreateGroup', userId: 'alice', chatId: 'g', name, memberIds }, none);

  it('creates a group of its creator and each other person once, its name trimmed', () => {
    expect(create(['bob', 'alice', 'bob', 'carol'], '  Trip  ')).toEqual([
      {
        type: 'GroupChatCreated',
        data: { chatId: 'g', name: 'Trip', members: ['alice', 'bob', 'carol'], createdBy: 'alice' },
      },
    ]);
  });

  it('refuses a group without anyone else, too many people, an empty or a too long name, or a taken id', () => {
    expect(() => create(['alice'])).toThrow(code('VALIDATION_FAILED'));
    const crowd = Array.from({ length: limits.groupMaxMembers }, (_, i) => `user${i}`);
    expect(() => create(crowd)).toThrow(code('VALIDATION_FAILED'));
    expect(() => create(['bob'], '   ')).toThrow(code('VALIDATION_FAILED'));
    expect(() => create(['bob'], 'x'.repeat(limits.groupNameMax + 1))).toThrow(code('VALIDATION_FAILED'));
    const taken = {
      type: 'CreateGroup',
      userId: 'alice',
      chatId: 'g',
      name: 'Trip',
      memberIds: ['bob'],
    } as const;
    expect(() => groupDecider.decide(taken, group)).toThrow(code('VERSION_CONFLICT'));
  });

  it('renames only to a name within the rules, and records nothing for a change that changes nothing', () => {
    const rename = (name: string) =>
      groupDecider.decide(
        { type: 'ChangeGroup', userId: 'alice', chatId: 'g', change: { kind: 'rename', name } },
        group,
      );
    expect(rename(' Holiday ')[0]?.data).toMatchObject({ name: 'Holiday' });
    expect(() => rename('')).toThrow(code('VALIDATION_FAILED'));
    const promoteAdmin = {
      type: 'ChangeGroup',
      userId: 'alice',
      chatId: 'g',
      change: { kind: 'promote', memberId: 'alice' },
    } as const;
    expect(groupDecider.decide(promoteAdmin, group)).toEqual([]);
  });

  it("records the member's signed change with the event it decided", () => {
    const signedChange = { groupId: 'g' } as never;
    const [decided] = groupDecider.decide(
      { type: 'ChangeGroup', userId: 'alice', chatId: 'g', change: { kind: 'leave' }, signedChange },
      group,
    );
    expect(decided?.data).toMatchObject({ memberId: 'alice', signedChange });
  });
});
