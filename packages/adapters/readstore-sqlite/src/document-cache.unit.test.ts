import { describe, expect, it } from 'vitest';
import { DocumentCache } from './document-cache.ts';

describe('the cache of documents read by id', () => {
  it('keeps what was read, refreshes it on a committed put, forgets it on a delete or a clear', () => {
    const cache = new DocumentCache(10_000);
    cache.remember('chats', 'c1', '{"_id":"c1","n":1}');
    cache.stored('chats', 'c1', '{"_id":"c1","n":2}');
    expect(cache.get('chats', 'c1')).toBe('{"_id":"c1","n":2}');
    cache.deleted('chats', 'c1');
    expect(cache.get('chats', 'c1')).toBeUndefined();
    cache.remember('chats', 'c2', '{"_id":"c2"}');
    cache.remember('names', 'c2', '{"_id":"c2"}');
    cache.cleared('chats');
    expect(cache.get('chats', 'c2')).toBeUndefined();
    expect(cache.get('names', 'c2')).toBe('{"_id":"c2"}');
  });

  it('takes no document in on a put alone: writes of documents nobody reads by id pass it by', () => {
    const cache = new DocumentCache(1_000);
    cache.stored('messages', 'm1', '{"_id":"m1"}');
    expect(cache.get('messages', 'm1')).toBeUndefined();
  });

  it('remembers a document found missing until a put of it commits', () => {
    const cache = new DocumentCache(1_000);
    cache.remember('blocks', 'u1', DocumentCache.missing);
    expect(cache.get('blocks', 'u1')).toBe(DocumentCache.missing);
    // Forgotten, not taken in: read again when next asked for (a new message, looked up before
    // its first put, must not push out what is read by id).
    cache.stored('blocks', 'u1', '{"_id":"u1","blocked":["u2"]}');
    expect(cache.get('blocks', 'u1')).toBeUndefined();
    cache.remember('blocks', 'u1', '{"_id":"u1","blocked":["u2"]}');
    cache.deleted('blocks', 'u1');
    expect(cache.get('blocks', 'u1')).toBeUndefined();
  });

  it('drops the least recently read first when full, and never holds more than its size', () => {
    const cache = new DocumentCache(64 * 20);
    const doc = (id: string) => JSON.stringify({ _id: id }).padEnd(20);
    cache.remember('c', 'a', doc('a'));
    for (let i = 0; i < 63; i++) cache.remember('c', `x${i}`, doc(`x${i}`));
    expect(cache.get('c', 'a')).toBe(doc('a'));
    cache.remember('c', 'b', doc('b'));
    // 'x0' was read least recently: out; 'a', read a moment ago, stays.
    expect(cache.get('c', 'x0')).toBeUndefined();
    expect(cache.get('c', 'a')).toBe(doc('a'));
    // A document bigger than a 64th of the cache is never kept.
    cache.remember('c', 'big', 'x'.repeat(21));
    expect(cache.get('c', 'big')).toBeUndefined();
  });
});
