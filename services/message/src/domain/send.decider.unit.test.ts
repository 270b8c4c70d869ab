import { describe, expect, it } from 'vitest';
import { limits } from '@veil/contracts';
import { decideSend, type SendMessage } from './send.decider.ts';

const command: SendMessage = {
  userId: 'alice',
  chatId: 'chat-1',
  content: 'ciphertext',
  iv: 'iv',
  encryptedKeys: { alice: 'ka', bob: 'kb' },
};
const members = ['alice', 'bob'];
const now = new Date('2026-03-04T05:06:07.000Z');

describe('deciding a send', () => {
  it('gives the MessageSent payload for a member with a key per member', () => {
    expect(
      decideSend({ ...command, clientMessageId: 'key-12345678' }, { members, messageId: 'm1', now }),
    ).toEqual({
      messageId: 'm1',
      chatId: 'chat-1',
      senderId: 'alice',
      content: 'ciphertext',
      iv: 'iv',
      encryptedKeys: { alice: 'ka', bob: 'kb' },
      replyTo: null,
      clientMessageId: 'key-12345678',
    });
  });

  it('keeps a signature as sent, and refuses one without the clientMessageId it covers', () => {
    const signature = { value: 'c2ln', signedAt: '2026-01-02T03:04:05.000Z' };
    const signed = decideSend(
      { ...command, clientMessageId: 'key-12345678', signature },
      { members, messageId: 'm', now },
    );
    expect(signed.signature).toEqual(signature);
    expect(decideSend(command, { members, messageId: 'm', now })).not.toHaveProperty('signature');
    expect(() => decideSend({ ...command, signature }, { members, messageId: 'm', now })).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        message: expect.stringMatching(/clientMessageId/),
      }),
    );
  });

  it('answers a chat that is not yours exactly like one that does not exist', () => {
    const notYours = () => decideSend({ ...command, userId: 'mallory' }, { members, messageId: 'm', now });
    const none = () => decideSend(command, { members: null, messageId: 'm', now });
    expect(notYours).toThrow(expect.objectContaining({ code: 'CHAT_NOT_FOUND', message: 'Chat not found' }));
    expect(none).toThrow(expect.objectContaining({ code: 'CHAT_NOT_FOUND', message: 'Chat not found' }));
  });

  it('refuses a send in a one-to-one chat where one blocked the other, after the membership check', () => {
    expect(() => decideSend(command, { members, messageId: 'm', now, blocked: true })).toThrow(
      expect.objectContaining({ code: 'CONTACT_UNAVAILABLE', message: 'This user is not available' }),
    );
    // Not a member: still "not found", so a block says nothing about chats one is not in.
    expect(() =>
      decideSend({ ...command, userId: 'mallory' }, { members, messageId: 'm', now, blocked: true }),
    ).toThrow(expect.objectContaining({ code: 'CHAT_NOT_FOUND' }));
    expect(decideSend(command, { members, messageId: 'm', now, blocked: false }).senderId).toBe('alice');
  });

  it('refuses a key map that misses a member or names a stranger', () => {
    const keyMaps: Record<string, string>[] = [{ alice: 'ka' }, { alice: 'ka', bob: 'kb', eve: 'ke' }];
    for (const encryptedKeys of keyMaps) {
      expect(() => decideSend({ ...command, encryptedKeys }, { members, messageId: 'm', now })).toThrow(
        expect.objectContaining({ code: 'KEY_MAP_MISMATCH' }),
      );
    }
  });

  it('refuses a ciphertext past the limit, and a reply to another chat or to nothing', () => {
    const tooLong = { ...command, content: 'x'.repeat(limits.messageCiphertextMaxChars + 1) };
    expect(() => decideSend(tooLong, { members, messageId: 'm', now })).toThrow(
      expect.objectContaining({ code: 'PAYLOAD_TOO_LARGE' }),
    );
    for (const replyToChat of ['chat-2', null]) {
      expect(() =>
        decideSend({ ...command, replyTo: 'q' }, { members, replyToChat, messageId: 'm', now }),
      ).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    }
    expect(
      decideSend({ ...command, replyTo: 'q' }, { members, replyToChat: 'chat-1', messageId: 'm', now })
        .replyTo,
    ).toBe('q');
  });

  it('sends complete uploads of the sender in this chat, once (a retry with the same key may name them again)', () => {
    const blob = (over: object) => ({
      chatId: 'chat-1',
      uploaderId: 'alice',
      state: 'complete' as const,
      ...over,
    });
    const decide = (over: object, cmd: Partial<SendMessage> = {}) =>
      decideSend(
        { ...command, attachments: ['b1'], ...cmd },
        { members, messageId: 'm', now, attachments: new Map([['b1', blob(over)]]) },
      );
    expect(decide({}).attachments).toEqual(['b1']);
    const refused = (over: object, cmd: Partial<SendMessage>, message: RegExp) =>
      expect(() => decide(over, cmd)).toThrow(
        expect.objectContaining({ code: 'VALIDATION_FAILED', message: expect.stringMatching(message) }),
      );
    refused({ uploaderId: 'bob' }, {}, /not a file you uploaded/);
    refused({ chatId: 'chat-2' }, {}, /not a file you uploaded/);
    refused({ state: 'removed' }, {}, /not a file you uploaded/);
    refused({}, { attachments: ['b2'] }, /not a file you uploaded/);
    refused({ state: 'uploading' }, {}, /not fully uploaded/);
    refused({}, { attachments: ['b1', 'b1'] }, /twice/);
    refused({ sentWith: { messageId: 'm0' } }, {}, /already sent/);
    refused(
      { sentWith: { messageId: 'm0', clientMessageId: 'key-other1' } },
      { clientMessageId: 'key-12345678' },
      /already sent/,
    );
    expect(
      decide(
        { sentWith: { messageId: 'm0', clientMessageId: 'key-12345678' } },
        { clientMessageId: 'key-12345678' },
      ).attachments,
    ).toEqual(['b1']);
  });

  it('gives a message sent in a chat with a disappearing timer the moment it expires, and none without', () => {
    const withTimer = decideSend(command, { members, messageId: 'm', now, disappearingSeconds: 300 });
    expect(withTimer.expiresAt).toBe('2026-03-04T05:11:07.000Z');
    expect(decideSend(command, { members, messageId: 'm', now, disappearingSeconds: 0 })).not.toHaveProperty(
      'expiresAt',
    );
    expect(decideSend(command, { members, messageId: 'm', now })).not.toHaveProperty('expiresAt');
  });
});
