import type { MessageSignature } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { futureWindowMs, orderFlags, outOfTime, pastWindowMs, type Sequenced } from './message-order.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 28, 9, minute)).toISOString();

/** A v2-signed message of `sender`, stored at position `seq` and minute `seq`. */
const message = (
  seq: number,
  sender: string,
  clientMessageId: string,
  counter: number,
  prev: string | null,
  signedAt = at(seq),
): Sequenced => ({
  _id: `m${seq}`,
  seq,
  sender: { _id: sender },
  createdAt: at(seq),
  clientMessageId,
  signature: {
    value: 'A'.repeat(88),
    signedAt,
    version: 2,
    keyCommitment: 'c',
    keyLogHeads: {},
    counter,
    prev,
  } satisfies MessageSignature,
});

describe('order and replay (orderFlags)', () => {
  it('flags nothing in an ordinary chat of two senders, gaps in counters included', () => {
    const chat = [
      message(1, 'ann', 'a1', 1, null),
      message(2, 'bob', 'b1', 1, null),
      message(3, 'ann', 'a2', 2, 'a1'),
      // An edit or a reaction took counter 3: the next message skips it.
      message(4, 'ann', 'a3', 4, 'a2'),
      message(5, 'bob', 'b2', 2, 'b1'),
    ];
    expect(orderFlags(chat).size).toBe(0);
  });

  it('flags a message re-delivered under a new position as replayed, and leaves the original alone', () => {
    const original = message(1, 'ann', 'a1', 1, null);
    const replay = { ...original, _id: 'm9', seq: 9, createdAt: at(9) };
    const flags = orderFlags([original, message(2, 'ann', 'a2', 2, 'a1'), replay]);
    expect(flags.get('m9')).toBe('replayed');
    expect(flags.has('m1')).toBe(false);
  });

  it('flags a counter repeated with another client message id', () => {
    const flags = orderFlags([message(1, 'ann', 'a1', 1, null), message(2, 'ann', 'a2', 1, null)]);
    expect(flags.get('m2')).toBe('replayed');
  });

  it('flags a counter that goes back, or a previous message stored after it', () => {
    const back = orderFlags([message(1, 'ann', 'a5', 5, 'a4'), message(2, 'ann', 'a3', 3, 'a2')]);
    expect(back.get('m2')).toBe('reordered');
    // The server shows a3 (which names a4 as its previous) before a4.
    const swapped = orderFlags([message(1, 'ann', 'a3', 5, 'a4'), message(2, 'ann', 'a4', 4, 'a2')]);
    expect(swapped.get('m1')).toBe('reordered');
    // Another sender's counters are their own.
    expect(orderFlags([message(1, 'ann', 'a5', 5, null), message(2, 'bob', 'b1', 1, null)]).size).toBe(0);
  });

  it('flags a signed time too far from the stored time, within windows that allow the outbox', () => {
    expect(outOfTime(at(0), at(0))).toBe(false);
    const stored = Date.parse(at(0));
    expect(outOfTime(new Date(stored + futureWindowMs).toISOString(), at(0))).toBe(false);
    expect(outOfTime(new Date(stored + futureWindowMs + 1).toISOString(), at(0))).toBe(true);
    // A message written offline days ago and sent now.
    expect(outOfTime(new Date(stored - 3 * 24 * 3600_000).toISOString(), at(0))).toBe(false);
    expect(outOfTime(new Date(stored - pastWindowMs - 1).toISOString(), at(0))).toBe(true);
    expect(outOfTime('not a time', at(0))).toBe(true);
    const old = message(1, 'ann', 'a1', 1, null, new Date(stored - pastWindowMs - 60_000).toISOString());
    expect(orderFlags([old]).get('m1')).toBe('out-of-time');
  });

  it('judges only version 2 signatures', () => {
    const v1 = { ...message(2, 'ann', 'a1', 1, null), signature: { value: 'A'.repeat(88), signedAt: at(2) } };
    expect(orderFlags([message(1, 'ann', 'a1', 1, null), v1]).size).toBe(0);
  });
});
