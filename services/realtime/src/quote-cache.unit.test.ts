import type { MessageEvent } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { createQuoteCache } from './quote-cache.ts';

type Sent = Extract<MessageEvent, { type: 'MessageSent' }>;

const meta = (messageId: string) => ({
  eventId: `e-${messageId}-${Math.random()}`,
  streamId: `msg-${messageId}`,
  occurredAt: '2026-01-01T00:00:00.000Z',
  schemaVersion: 1,
});

const sent = (messageId: string, contentBytes = 100): Sent => ({
  ...meta(messageId),
  type: 'MessageSent',
  data: {
    messageId,
    chatId: 'chat',
    senderId: 'alice',
    content: 'c'.repeat(contentBytes),
    iv: 'iv',
    encryptedKeys: { alice: 'key-a', bob: 'key-b' },
    replyTo: null,
  },
});

describe('the quote cache', () => {
  it('knows only messages it saw sent, and follows their later events', () => {
    const cache = createQuoteCache();
    cache.apply(
      { ...meta('old'), type: 'MessageSeen', data: { messageId: 'old', chatId: 'chat', userId: 'bob' } },
      1,
    );
    expect(cache.quoteOf('old')).toBeUndefined();

    cache.apply(sent('m1'), 2);
    cache.apply(
      { ...meta('m1'), type: 'MessageSeen', data: { messageId: 'm1', chatId: 'chat', userId: 'bob' } },
      3,
    );
    expect(cache.quoteOf('m1')).toMatchObject({ _id: 'm1', seq: 2, seenBy: { bob: true }, replyTo: null });
  });

  it('keeps no ciphertext of a deleted or expired message', () => {
    const cache = createQuoteCache();
    cache.apply(sent('gone', 1_000), 1);
    cache.apply(sent('expired', 1_000), 2);
    const withCiphertext = cache.bytes();
    cache.apply(
      {
        ...meta('gone'),
        type: 'MessageDeleted',
        data: {
          messageId: 'gone',
          chatId: 'chat',
          senderId: 'alice',
          deletedBy: 'alice',
          sentAt: '2026-01-01T00:00:00.000Z',
          seq: 1,
        },
      },
      3,
    );
    cache.apply(
      { ...meta('expired'), type: 'MessageExpired', data: { messageId: 'expired', chatId: 'chat' } },
      4,
    );
    expect(cache.quoteOf('gone')).toMatchObject({ deleted: true, content: '', iv: '', encryptedKeys: {} });
    expect(cache.quoteOf('expired')).toBeNull();
    expect(cache.bytes()).toBeLessThan(withCiphertext - 2 * 1_000);
  });

  it('stays within its bound in bytes, the least recently used out first', () => {
    const bound = 20_000;
    const cache = createQuoteCache(bound);
    for (let i = 0; i < 100; i += 1) {
      cache.apply(sent(`m${i}`, 1_000), i + 1);
      if (i > 0) cache.quoteOf('m0'); // quoted often: kept
      expect(cache.bytes()).toBeLessThanOrEqual(bound);
    }
    expect(cache.quoteOf('m0')).toMatchObject({ _id: 'm0' });
    expect(cache.quoteOf('m1')).toBeUndefined();
    expect(cache.quoteOf('m99')).toMatchObject({ _id: 'm99' });
    // One message larger than the whole bound is not kept (its quote is then asked for).
    cache.apply(sent('huge', bound), 101);
    expect(cache.quoteOf('huge')).toBeUndefined();
    expect(cache.bytes()).toBeLessThanOrEqual(bound);
  });

  it('forgets a message that grew past the bound rather than keep its older text', () => {
    const bound = 5_000;
    const cache = createQuoteCache(bound);
    cache.apply(sent('m1'), 1);
    cache.apply(
      {
        ...meta('m1'),
        type: 'MessageEdited',
        data: {
          messageId: 'm1',
          chatId: 'chat',
          senderId: 'alice',
          content: 'x'.repeat(bound),
          iv: 'iv2',
          encryptedKeys: {},
        },
      },
      2,
    );
    expect(cache.quoteOf('m1')).toBeUndefined();
  });
});
