import { describe, expect, it } from 'vitest';
import { messageQueued, outboxLoaded, outboxSlice, type OutboxItem } from './outbox.slice.ts';

const item = (clientMessageId: string): OutboxItem => ({
  clientMessageId,
  chatId: 'chat',
  text: clientMessageId,
  replyTo: null,
  queuedAt: '2026-01-01T00:00:00.000Z',
  status: 'sending',
});
const reduce = outboxSlice.reducer;

describe('the outbox', () => {
  it('keeps a message written before the stored outbox was read, after the stored ones', () => {
    const early = reduce(undefined, messageQueued(item('typed-at-once')));
    const loaded = reduce(early, outboxLoaded({ owner: 'alice', items: [item('stored')] }));
    expect(loaded).toEqual({ owner: 'alice', items: [item('stored'), item('typed-at-once')] });
  });

  it("takes a stored copy once, and never another account's messages", () => {
    const early = reduce(undefined, messageQueued(item('same')));
    expect(reduce(early, outboxLoaded({ owner: 'alice', items: [item('same')] })).items).toEqual([
      item('same'),
    ]);
    const bobs = reduce(undefined, outboxLoaded({ owner: 'bob', items: [item('bob')] }));
    expect(reduce(bobs, outboxLoaded({ owner: 'alice', items: [] })).items).toEqual([]);
  });
});
