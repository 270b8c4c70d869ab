import { describe, expect, it } from 'vitest';
import { pushPayloadSchema, type MessageSentEvent } from '@veil/contracts';
import { maxPushPayloadBytes, pushPayloadFor, type PushSignatureContext } from './push-payload.ts';

const signature = { value: 'A'.repeat(86) + '==', signedAt: '2026-01-02T03:04:04.000Z' };
const sent = (content: string, extra: Partial<MessageSentEvent['data']> = {}): MessageSentEvent => ({
  type: 'MessageSent',
  eventId: 'e1',
  streamId: 'msg-m1',
  occurredAt: '2026-01-02T03:04:05.000Z',
  schemaVersion: 1,
  data: {
    messageId: 'm1',
    chatId: 'c1',
    senderId: 'alice',
    content,
    iv: 'iv-base64',
    encryptedKeys: { alice: 'key-for-alice', bob: 'key-for-bob' },
    replyTo: 'm0',
    clientMessageId: 'client-0001',
    signature,
    ...extra,
  },
});
const context: PushSignatureContext = {
  isGroupChat: false,
  keyMap: { members: ['alice', 'bob'], digest: 'a'.repeat(64) },
};
const parsed = (payload: string) => pushPayloadSchema.parse(JSON.parse(payload));

describe('push payloads', () => {
  it('carry the ciphertext, its iv, the recipient key only, and what checks the signature', () => {
    expect(parsed(pushPayloadFor(sent('cipher'), 'bob', 'alice', context))).toEqual({
      kind: 'message',
      userId: 'bob',
      chatId: 'c1',
      messageId: 'm1',
      sender: { _id: 'alice', username: 'alice' },
      sentAt: '2026-01-02T03:04:05.000Z',
      message: {
        content: 'cipher',
        iv: 'iv-base64',
        encryptedKey: 'key-for-bob',
        isGroupChat: false,
        keyMap: context.keyMap,
        replyTo: 'm0',
        clientMessageId: 'client-0001',
        signature,
      },
    });
  });

  it('carry an unsigned message without a signature, and no reply as null', () => {
    const { signature: _none, clientMessageId: _id, ...bare } = sent('cipher').data;
    const event = { ...sent('cipher'), data: { ...bare, replyTo: null } };
    const group = { ...context, isGroupChat: true };
    expect(parsed(pushPayloadFor(event, 'bob', 'alice', group)).message).toEqual({
      content: 'cipher',
      iv: 'iv-base64',
      encryptedKey: 'key-for-bob',
      isGroupChat: true,
      keyMap: context.keyMap,
      replyTo: null,
    });
  });

  it('fall back to the ids when the message would not fit', () => {
    const fits = 'x'.repeat(maxPushPayloadBytes - 800);
    expect(parsed(pushPayloadFor(sent(fits), 'bob', null, context)).message?.content).toBe(fits);
    const big = pushPayloadFor(sent('x'.repeat(maxPushPayloadBytes)), 'bob', null, context);
    expect(new TextEncoder().encode(big).length).toBeLessThanOrEqual(maxPushPayloadBytes);
    const payload = parsed(big);
    expect(payload.message).toBeUndefined();
    expect(payload).toMatchObject({ messageId: 'm1', sender: { _id: 'alice', username: null } });
    // A key map too long for a push (a large group) falls back the same way.
    const members = Array.from({ length: 200 }, (_, i) => `member${String(i).padStart(18, '0')}`);
    const large = { isGroupChat: true, keyMap: { members, digest: 'b'.repeat(64) } };
    expect(parsed(pushPayloadFor(sent('short'), 'bob', null, large)).message).toBeUndefined();
  });

  it('carry no message for a member without a wrapped key, or when the chat is not known', () => {
    expect(parsed(pushPayloadFor(sent('c'), 'carol', 'alice', context)).message).toBeUndefined();
    expect(parsed(pushPayloadFor(sent('c'), 'bob', 'alice', null)).message).toBeUndefined();
  });
});
