import { describe, expect, it } from 'vitest';
import { limits } from '@veil/contracts';
import {
  decideDeleteForEveryone,
  decideEdit,
  decideHide,
  decideReaction,
  type ChangeState,
  type TargetMessage,
} from './change.decider.ts';

const sentAt = new Date('2026-01-01T12:00:00.000Z');
const message: TargetMessage = {
  chat: 'c1',
  sender: 'alice',
  createdAt: sentAt.toISOString(),
  seq: 7,
  reactedBy: [],
  hiddenFor: [],
};
const at = (hoursLater: number) => new Date(sentAt.getTime() + hoursLater * 3_600_000);
const state: ChangeState = { message, members: ['alice', 'bob'], now: at(1) };
const sealed = { content: 'new-ciphertext', iv: 'iv', encryptedKeys: { alice: 'ka', bob: 'kb' } };
const edit = { userId: 'alice', messageId: 'm1', ...sealed };
const code = (c: string) => expect.objectContaining({ code: c });

describe('deciding an edit', () => {
  it("gives the MessageEdited payload for the sender's message, keyed for the members", () => {
    expect(decideEdit(edit, state)).toEqual({ messageId: 'm1', chatId: 'c1', senderId: 'alice', ...sealed });
  });

  it("refuses someone else's message (403), a stranger (404) and a deleted message (404)", () => {
    expect(() => decideEdit({ ...edit, userId: 'bob' }, state)).toThrow(code('FORBIDDEN'));
    expect(() => decideEdit({ ...edit, userId: 'mallory' }, state)).toThrow(code('MESSAGE_NOT_FOUND'));
    expect(() => decideEdit(edit, { ...state, message: null })).toThrow(code('MESSAGE_NOT_FOUND'));
    expect(() => decideEdit(edit, { ...state, message: { ...message, deleted: true } })).toThrow(
      code('MESSAGE_NOT_FOUND'),
    );
  });

  it('refuses the sender who left the chat (403) and an edit after 24 hours (409)', () => {
    expect(() => decideEdit(edit, { ...state, members: ['bob'] })).toThrow(code('FORBIDDEN'));
    expect(() => decideEdit(edit, { ...state, now: at(24.01) })).toThrow(code('TIME_LIMIT_PASSED'));
    expect(decideEdit(edit, { ...state, now: at(23.99) }).messageId).toBe('m1');
  });

  it('refuses a key map that names a former member or misses one, and a ciphertext too large', () => {
    const keyMaps: Record<string, string>[] = [{ alice: 'ka' }, { alice: 'ka', bob: 'kb', carol: 'kc' }];
    for (const encryptedKeys of keyMaps) {
      expect(() => decideEdit({ ...edit, encryptedKeys }, state)).toThrow(code('KEY_MAP_MISMATCH'));
    }
    const content = 'x'.repeat(limits.messageCiphertextMaxChars + 1);
    expect(() => decideEdit({ ...edit, content }, state)).toThrow(code('PAYLOAD_TOO_LARGE'));
  });
});

describe('deciding a delete for everyone', () => {
  const command = { userId: 'alice', messageId: 'm1' };

  it('keeps what the tombstone shows: sender, time and place in the history', () => {
    expect(decideDeleteForEveryone(command, state)).toEqual({
      messageId: 'm1',
      chatId: 'c1',
      senderId: 'alice',
      deletedBy: 'alice',
      sentAt: sentAt.toISOString(),
      seq: 7,
    });
  });

  it('has the rights of an edit: sender only, still a member, within 24 hours', () => {
    expect(() => decideDeleteForEveryone({ ...command, userId: 'bob' }, state)).toThrow(code('FORBIDDEN'));
    expect(() => decideDeleteForEveryone({ ...command, userId: 'eve' }, state)).toThrow(
      code('MESSAGE_NOT_FOUND'),
    );
    expect(() => decideDeleteForEveryone(command, { ...state, members: ['bob'] })).toThrow(code('FORBIDDEN'));
    expect(() => decideDeleteForEveryone(command, { ...state, now: at(25) })).toThrow(
      expect.objectContaining({
        code: 'TIME_LIMIT_PASSED',
        message: 'A message can only be deleted within 24 hours of sending',
      }),
    );
  });

  it('records nothing again for a message already deleted', () => {
    const deleted = { ...state, message: { ...message, deleted: true } };
    expect(decideDeleteForEveryone(command, deleted)).toBeNull();
    expect(() => decideDeleteForEveryone({ ...command, userId: 'bob' }, deleted)).toThrow(
      code('MESSAGE_NOT_FOUND'),
    );
  });
});

describe('deciding a delete for me', () => {
  it('lets any member hide any message of the chat, at any time, once', () => {
    const command = { userId: 'bob', messageId: 'm1' };
    expect(decideHide(command, { ...state, now: at(1000) })).toEqual({
      messageId: 'm1',
      chatId: 'c1',
      userId: 'bob',
    });
    expect(decideHide(command, { ...state, message: { ...message, hiddenFor: ['bob'] } })).toBeNull();
    expect(() => decideHide({ ...command, userId: 'eve' }, state)).toThrow(code('MESSAGE_NOT_FOUND'));
  });
});

describe('deciding a reaction', () => {
  const reaction = { content: 'c', iv: 'iv', encryptedKeys: { alice: 'ka', bob: 'kb' } };
  const command = { userId: 'bob', messageId: 'm1', reaction };

  it("records a member's encrypted reaction, and its removal only when there is one", () => {
    expect(decideReaction(command, state)).toEqual({
      messageId: 'm1',
      chatId: 'c1',
      userId: 'bob',
      ...reaction,
    });
    const remove = { ...command, reaction: null };
    expect(decideReaction(remove, state)).toBeNull();
    expect(decideReaction(remove, { ...state, message: { ...message, reactedBy: ['bob'] } })).toEqual({
      messageId: 'm1',
      chatId: 'c1',
      userId: 'bob',
    });
  });

  it('answers a foreign chat or a deleted message as not found, and checks keys and size', () => {
    expect(() => decideReaction({ ...command, userId: 'eve' }, state)).toThrow(code('MESSAGE_NOT_FOUND'));
    expect(() => decideReaction(command, { ...state, message: { ...message, deleted: true } })).toThrow(
      code('MESSAGE_NOT_FOUND'),
    );
    expect(() =>
      decideReaction({ ...command, reaction: { ...reaction, encryptedKeys: { bob: 'kb' } } }, state),
    ).toThrow(code('KEY_MAP_MISMATCH'));
    const content = 'x'.repeat(limits.reactionCiphertextMaxChars + 1);
    expect(() => decideReaction({ ...command, reaction: { ...reaction, content } }, state)).toThrow(
      code('PAYLOAD_TOO_LARGE'),
    );
  });
});
