import { describe, expect, it } from 'vitest';
import { pushPayloadSchema, type MessageSentEvent } from '@veil/contracts';
import { maxPushPayloadBytes, pushPayloadFor } from './push-payload.ts';

const sent = (content: string): MessageSentEvent => ({
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
    replyTo: null,
  },
});

describe('push payloads', () => {
  it('carry the ciphertext, its iv and the recipient key only', () => {
    const payload = pushPayloadSchema.parse(JSON.parse(pushPayloadFor(sent('cipher'), 'bob', 'alice')));
    expect(payload).toEqual({
      kind: 'message',
      userId: 'bob',
      chatId: 'c1',
      messageId: 'm1',
      sender: { _id: 'alice', username: 'alice' },
      sentAt: '2026-01-02T03:04:05.000Z',
      message: { content: 'cipher', iv: 'iv-base64', encryptedKey: 'key-for-bob' },
    });
  });

  it('fall back to the ids when the message would not fit', () => {
    const big = pushPayloadFor(sent('x'.repeat(maxPushPayloadBytes)), 'bob', null);
    expect(new TextEncoder().encode(big).length).toBeLessThanOrEqual(maxPushPayloadBytes);
    const payload = pushPayloadSchema.parse(JSON.parse(big));
    expect(payload.message).toBeUndefined();
    expect(payload).toMatchObject({ messageId: 'm1', sender: { _id: 'alice', username: null } });
  });

  it('carry no message for a member without a wrapped key', () => {
    expect(
      pushPayloadSchema.parse(JSON.parse(pushPayloadFor(sent('c'), 'carol', 'alice'))).message,
    ).toBeUndefined();
  });
});
