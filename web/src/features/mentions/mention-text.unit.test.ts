import { describe, expect, it } from 'vitest';
import {
  insertMention,
  membersMatching,
  mentionQueryAt,
  mentionSegments,
  mentionsUser,
  shiftMentions,
  withCurrentNames,
} from './mention-text.ts';

const names: Record<string, string> = { 'u-bob': 'bob', 'u-carol': 'Carol Renamed' };
const nameOf = (id: string) => names[id];
const text = 'Hi @bob and @carol!';
const bob = { userId: 'u-bob', start: 3, length: 4 };
const carol = { userId: 'u-carol', start: 12, length: 6 };

describe('mentionSegments', () => {
  it('shows each member mentioned by their current name, the rest as text', () => {
    expect(mentionSegments(text, [carol, bob], nameOf)).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', userId: 'u-bob', name: 'bob' },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', userId: 'u-carol', name: 'Carol Renamed' },
      { kind: 'text', text: '!' },
    ]);
  });

  it('leaves a mention of someone who is not a member as the text the sender wrote', () => {
    const stranger = { userId: 'u-eve', start: 3, length: 4 };
    expect(mentionSegments(text, [stranger], nameOf)).toEqual([{ kind: 'text', text }]);
  });

  it('ignores ranges the text cannot hold or that overlap, and never throws', () => {
    const forged = [
      { userId: 'u-bob', start: 15, length: 99 },
      { userId: 'u-bob', start: -5, length: 2 },
      bob,
      { userId: 'u-carol', start: 4, length: 2 },
    ];
    expect(mentionSegments(text, forged, nameOf)).toEqual([
      { kind: 'text', text: 'Hi ' },
      { kind: 'mention', userId: 'u-bob', name: 'bob' },
      { kind: 'text', text: ' and @carol!' },
    ]);
    expect(mentionSegments(text, undefined, nameOf)).toEqual([{ kind: 'text', text }]);
  });

  it('tells whether a message names someone', () => {
    expect(mentionsUser([bob, carol], 'u-carol')).toBe(true);
    expect(mentionsUser([bob], 'u-carol')).toBe(false);
    expect(mentionsUser(undefined, 'u-bob')).toBe(false);
  });
});

describe('shiftMentions (typing around mentions)', () => {
  it('moves mentions after what was typed, keeps those before', () => {
    expect(shiftMentions(text, `Oh ${text}`, [bob, carol])).toEqual([
      { ...bob, start: 6 },
      { ...carol, start: 15 },
    ]);
    expect(shiftMentions(text, `${text} yes`, [bob, carol])).toEqual([bob, carol]);
  });

  it('drops a mention whose text was changed, so what is left is plain text', () => {
    expect(shiftMentions(text, 'Hi @bb and @carol!', [bob, carol])).toEqual([{ ...carol, start: 11 }]);
    expect(shiftMentions(text, 'Hi ', [bob, carol])).toEqual([]);
  });

  it('keeps a mention when text is typed right after it', () => {
    expect(shiftMentions('@bob', '@bob!', [{ userId: 'u-bob', start: 0, length: 4 }])).toEqual([
      { userId: 'u-bob', start: 0, length: 4 },
    ]);
  });
});

describe('typing "@" and picking', () => {
  it('finds the word being typed after "@" at the caret', () => {
    expect(mentionQueryAt('Hi @bo', 6, [])).toEqual({ start: 3, query: 'bo' });
    expect(mentionQueryAt('@', 1, [])).toEqual({ start: 0, query: '' });
    expect(mentionQueryAt('Hi @bo there', 6, [])).toEqual({ start: 3, query: 'bo' });
  });

  it('opens nothing for an e-mail address, a finished word or a mention already made', () => {
    expect(mentionQueryAt('mail me@host', 12, [])).toBeNull();
    expect(mentionQueryAt('Hi @bob there', 13, [])).toBeNull();
    expect(mentionQueryAt('Hi @bob', 7, [bob])).toBeNull();
    expect(mentionQueryAt('no at sign', 5, [])).toBeNull();
  });

  it('puts "@name " in place of the query and records its range', () => {
    expect(insertMention('Hi @bo', [], { start: 3, caret: 6 }, { _id: 'u-bob', username: 'bob' })).toEqual({
      text: 'Hi @bob ',
      mentions: [bob],
      caret: 8,
    });
    const later = insertMention(
      '@c and @bob',
      [{ ...bob, start: 7 }],
      { start: 0, caret: 2 },
      {
        _id: 'u-carol',
        username: 'carol',
      },
    );
    expect(later).toEqual({
      text: '@carol and @bob',
      mentions: [
        { userId: 'u-carol', start: 0, length: 6 },
        { ...bob, start: 11 },
      ],
      caret: 7,
    });
  });

  it('offers the members whose names contain the query, those starting with it first', () => {
    const members = [
      { _id: '1', username: 'Abby' },
      { _id: '2', username: 'bob' },
      { _id: '3', username: 'Carol' },
    ];
    expect(membersMatching(members, 'B').map((m) => m.username)).toEqual(['bob', 'Abby']);
    expect(membersMatching(members, '').map((m) => m.username)).toEqual(['Abby', 'bob', 'Carol']);
    expect(membersMatching(members, 'zed')).toEqual([]);
  });
});

describe('withCurrentNames (what an edit starts from)', () => {
  it("writes each member's current name and moves the ranges to match", () => {
    expect(withCurrentNames(text, [bob, carol], nameOf)).toEqual({
      text: 'Hi @bob and @Carol Renamed!',
      mentions: [bob, { userId: 'u-carol', start: 12, length: 14 }],
    });
  });

  it('leaves a mention of a non-member as its text, without a range', () => {
    expect(withCurrentNames(text, [{ userId: 'u-eve', start: 3, length: 4 }], nameOf)).toEqual({
      text,
      mentions: [],
    });
  });
});
