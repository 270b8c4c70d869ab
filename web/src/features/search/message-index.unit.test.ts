import { describe, expect, it } from 'vitest';
import { createMessageIndex, type IndexedMessage } from './message-index.ts';

const message = (id: string, text: string, seq = 1, chatId = 'c1'): IndexedMessage => ({
  id,
  chatId,
  seq,
  senderId: 'u1',
  createdAt: `2026-01-01T00:00:0${seq}.000Z`,
  text,
});

describe('the message search index', () => {
  it('finds words by prefix and with a typo, follows an edit and forgets a removal', () => {
    const index = createMessageIndex();
    index.put(message('m1', 'Meet me at the lighthouse at noon', 1));
    index.put(message('m2', 'Bring the blue umbrella', 2, 'c2'));
    expect(index.search('lighth').map((hit) => hit.id)).toEqual(['m1']);
    expect(index.search('umbrela').map((hit) => hit.id)).toEqual(['m2']);
    expect(index.search('blue umbrella')[0]).toMatchObject({ id: 'm2', chatId: 'c2', seq: 2 });

    index.put(message('m1', 'Meet me at the harbour instead', 1));
    expect(index.search('lighthouse')).toEqual([]);
    expect(index.search('harbour').map((hit) => hit.id)).toEqual(['m1']);

    index.remove('m2');
    index.remove('m2');
    expect(index.search('umbrella')).toEqual([]);
    expect(index.size).toBe(1);
  });

  it('comes back whole from what it saved, with how far it has read each chat', () => {
    const index = createMessageIndex();
    index.put(message('m1', 'the secret recipe', 3));
    index.readUpTo('c1', 3);
    index.readUpTo('c1', 2);
    const saved = JSON.parse(JSON.stringify(index.save()));
    const again = createMessageIndex(saved);
    expect(again.search('recipe').map((hit) => hit.id)).toEqual(['m1']);
    expect(again.caughtUpTo('c1')).toBe(3);
    expect(again.caughtUpTo('c9')).toBe(0);
  });

  it('forgets a disappearing message when its time comes, saved or not, and never returns it', () => {
    const index = createMessageIndex();
    const now = Date.parse('2026-01-01T12:00:00.000Z');
    index.put({ ...message('m1', 'vanishing ink', 1), expiresAt: '2026-01-01T12:05:00.000Z' });
    index.put(message('m2', 'permanent ink', 2));
    expect(index.untilNextExpiry(now)).toBe(5 * 60_000);
    expect(
      index
        .search('ink', 50, now)
        .map((hit) => hit.id)
        .sort(),
    ).toEqual(['m1', 'm2']);
    const later = now + 5 * 60_000;
    expect(index.search('vanishing', 50, later)).toEqual([]);
    const reloaded = createMessageIndex(JSON.parse(JSON.stringify(index.save())));
    expect(reloaded.purgeExpired(later)).toBe(1);
    expect(reloaded.has('m1')).toBe(false);
    expect(reloaded.search('ink', 50, later).map((hit) => hit.id)).toEqual(['m2']);
    expect(reloaded.untilNextExpiry(later)).toBeUndefined();
  });

  it('forgets what a chat no longer has in a stretch of its history, and nothing outside it', () => {
    const index = createMessageIndex();
    for (const [id, seq, chat] of [
      ['a', 10, 'c1'],
      ['b', 20, 'c1'],
      ['c', 30, 'c1'],
      ['d', 20, 'c2'],
    ] as const)
      index.put(message(id, `word ${id}`, seq, chat));
    expect(index.reconcile('c1', 15, 30, new Set(['c']))).toBe(1);
    expect(['a', 'b', 'c', 'd'].filter((id) => index.has(id))).toEqual(['a', 'c', 'd']);
  });
});
