import { describe, expect, it } from 'vitest';
import type { DisplayMessage } from './display-message.ts';
import {
  canChangeForEveryone,
  changeMessage,
  edited,
  reacted,
  reactionCounts,
  tombstone,
  withoutMessage,
} from './message-changes.ts';

const sentAt = '2026-01-01T12:00:00.000Z';
const message: DisplayMessage = {
  _id: 'm1',
  chat: 'c1',
  sender: { _id: 'alice' },
  content: 'ciphertext',
  iv: 'iv',
  encryptedKeys: { alice: 'ka', bob: 'kb' },
  replyTo: null,
  seenBy: {},
  createdAt: sentAt,
  seq: 1,
  decryptedContent: 'hello',
  readState: 'read',
  reactionTexts: { bob: '👍' },
};

describe('changes to shown messages', () => {
  it('lets the sender change a message for everyone for 24 hours, never a deleted one', () => {
    const at = (hours: number) => Date.parse(sentAt) + hours * 3_600_000;
    expect(canChangeForEveryone(message, 'alice', at(23.9))).toBe(true);
    expect(canChangeForEveryone(message, 'alice', at(24.1))).toBe(false);
    expect(canChangeForEveryone(message, 'bob', at(1))).toBe(false);
    expect(canChangeForEveryone(tombstone(message), 'alice', at(1))).toBe(false);
  });

  it('turns a message into a tombstone that keeps its place and nothing of its content', () => {
    const gone = tombstone({ ...message, editedAt: sentAt });
    expect(gone).toMatchObject({ _id: 'm1', seq: 1, deleted: true, content: '', decryptedContent: '' });
    expect(gone.reactionTexts).toEqual({});
    expect(gone).not.toHaveProperty('editedAt');
    // An edit racing the deletion does not bring the text back.
    const change = {
      content: 'c2',
      iv: 'iv2',
      encryptedKeys: {},
      decryptedContent: 'again',
      readState: 'read' as const,
    };
    expect(edited(gone, { ...change, editedAt: sentAt })).toBe(gone);
    expect(edited(message, { ...change, editedAt: sentAt }).decryptedContent).toBe('again');
  });

  it("gives an edit the new text's mentions: none left when the edit names nobody", () => {
    const mentioning = {
      ...message,
      decryptedContent: '@bob hi',
      mentions: [{ userId: 'bob', start: 0, length: 4 }],
    };
    const change = {
      content: 'c2',
      iv: 'iv2',
      encryptedKeys: {},
      readState: 'read' as const,
      editedAt: sentAt,
    };
    expect(edited(mentioning, { ...change, decryptedContent: 'hi all' })).not.toHaveProperty('mentions');
    const moved = [{ userId: 'bob', start: 3, length: 4 }];
    expect(edited(mentioning, { ...change, decryptedContent: 'hi @bob', mentions: moved }).mentions).toEqual(
      moved,
    );
    expect(tombstone(mentioning)).not.toHaveProperty('mentions');
  });

  it('gives an edit its own franking key: none left when the edit carries none, so a report never pairs the old key with the new text', () => {
    const franked = { ...message, frankingKey: 'key of the text as sent' };
    const change = {
      content: 'c2',
      iv: 'iv2',
      encryptedKeys: {},
      readState: 'read' as const,
      editedAt: sentAt,
      decryptedContent: 'new text',
    };
    expect(edited(franked, change)).not.toHaveProperty('frankingKey');
    expect(edited(franked, { ...change, frankingKey: 'key of the edit' }).frankingKey).toBe(
      'key of the edit',
    );
  });

  it('sets, replaces and takes back one reaction per member, and counts them by emoji', () => {
    const more = reacted(reacted(reacted(message, 'alice', '👍'), 'carol', '🎉'), 'bob', '👍');
    expect(reactionCounts(more.reactionTexts, 'alice')).toEqual([
      { emoji: '👍', userIds: ['alice', 'bob'], mine: true },
      { emoji: '🎉', userIds: ['carol'], mine: false },
    ]);
    expect(reacted(more, 'alice', null).reactionTexts).toEqual({ carol: '🎉', bob: '👍' });
  });

  it('changes or drops only the message named', () => {
    const other = { ...message, _id: 'm2' };
    expect(changeMessage([message, other], 'm2', tombstone)[0]).toBe(message);
    expect(withoutMessage([message, other], 'm1')).toEqual([other]);
  });
});
