import { describe, expect, it } from 'vitest';
import type { MessageEvent } from './events/message.events.ts';
import { foldMessage, quotedViewOf, type MessageState } from './message-state.ts';

const envelope = (occurredAt = '2026-01-01T00:00:00.000Z') => ({
  eventId: 'e',
  streamId: 'msg-m1',
  occurredAt,
  schemaVersion: 1,
});
const ids = { messageId: 'm1', chatId: 'c1' };
const signature = { value: 'A'.repeat(88), signedAt: '2026-01-01T00:00:00.000Z' };

const sent: MessageEvent = {
  ...envelope(),
  type: 'MessageSent',
  data: {
    ...ids,
    senderId: 'alice',
    content: 'c0',
    iv: 'i0',
    encryptedKeys: { alice: 'k', bob: 'k' },
    replyTo: 'm0',
  },
};
const edited = (content: string, at: string): MessageEvent => ({
  ...envelope(at),
  type: 'MessageEdited',
  data: {
    ...ids,
    senderId: 'alice',
    content,
    iv: 'i1',
    encryptedKeys: { alice: 'k1', bob: 'k1' },
    signature,
  },
});
const rewrapped: MessageEvent = {
  ...envelope(),
  type: 'MessageKeyRewrapped',
  data: { ...ids, userId: 'bob', encryptedKey: 'rewrapped' },
};
const deleted: MessageEvent = {
  ...envelope(),
  type: 'MessageDeleted',
  data: { ...ids, senderId: 'alice', deletedBy: 'alice', sentAt: '2026-01-01T00:00:00.000Z', seq: 7 },
};
const seen: MessageEvent = { ...envelope(), type: 'MessageSeen', data: { ...ids, userId: 'bob' } };
const expired: MessageEvent = { ...envelope(), type: 'MessageExpired', data: ids };

const fold = (events: MessageEvent[]) =>
  events.reduce<MessageState | null>((state, event, i) => foldMessage(state, event, 7 + i), null);

describe('foldMessage', () => {
  it('an edit replaces the text and its keys, and drops the copies re-wrapped for the old key', () => {
    const state = fold([sent, rewrapped, edited('c1', '2026-01-02T00:00:00.000Z')]);
    expect(state).toMatchObject({ content: 'c1', iv: 'i1', editedAt: '2026-01-02T00:00:00.000Z', seq: 7 });
    expect(state?.rewrappedKeys).toBeUndefined();
    expect(state?.editSignature).toEqual(signature);
  });

  it('a deletion leaves a tombstone that keeps receipts and ignores content arriving after it', () => {
    const state = fold([sent, seen, deleted, edited('late', '2026-01-03T00:00:00.000Z'), rewrapped]);
    expect(state).toEqual({
      _id: 'm1',
      chat: 'c1',
      sender: 'alice',
      content: '',
      iv: '',
      encryptedKeys: {},
      replyTo: 'm0',
      seenBy: { bob: true },
      createdAt: '2026-01-01T00:00:00.000Z',
      seq: 7,
      deleted: true,
    });
    // Replayed after the deletion, the MessageSent does not bring the content back.
    expect(foldMessage(state, sent, 7)).toBe(state);
  });

  it('an expiry leaves nothing, and a quote never nests the message quoted in turn', () => {
    expect(fold([sent, seen, expired])).toBeNull();
    expect(quotedViewOf(fold([sent])!).replyTo).toBeNull();
  });
});
