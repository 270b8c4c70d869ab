import type { MessageSignature } from '@veil/contracts';

/**
 * Order and replay, as a reader checks them over the messages it holds in one chat
 * (docs/crypto.md, "Order and replay"). A version 2 signature covers a counter (1, 2, 3… per
 * sender and chat) and the sender's previous message there; the server's stored time and
 * position (`seq`) are not signed, and the rules compare the two.
 *
 * Two browsers of one account each keep their own counter, and each moves its counter past any
 * counter of its account it sees in the chat, so the counters of one account climb together; the
 * rules flag only what a replay or a reordering makes and ordinary use does not:
 * - `replayed`: a client message id, or a counter with another client message id, that the
 *   reader already holds from the same sender under an earlier position;
 * - `reordered`: a counter lower than that of a message of the same sender stored before it, or
 *   a previous message the reader holds that was stored after it or has no lower counter;
 * - `out-of-time`: a signed time more than `futureWindowMs` after the server's stored time, or
 *   more than `pastWindowMs` before it (what the offline outbox can hold).
 * A flagged message keeps its text, under a label: dropping it (as Signal drops duplicates)
 * would hide from the reader that the server tried.
 */
export type OrderFlag = 'replayed' | 'reordered' | 'out-of-time';

/** How far a signed time may lead the server's stored time: clocks a few minutes apart. */
export const futureWindowMs = 10 * 60_000;
/** How far a signed time may trail the server's stored time: a message waiting in the outbox. */
export const pastWindowMs = 30 * 24 * 60 * 60_000;

/** What the rules read of a held message. */
export interface Sequenced {
  _id: string;
  seq: number;
  sender: { _id: string };
  createdAt: string;
  clientMessageId?: string;
  signature?: MessageSignature;
}

const isV2 = (m: Sequenced): m is Sequenced & { signature: MessageSignature & { counter: number } } =>
  m.signature?.version !== undefined && typeof m.signature.counter === 'number';

/** Whether a signed time is too far from the stored one (either way). */
export const outOfTime = (signedAt: string, storedAt: string): boolean => {
  const lead = Date.parse(signedAt) - Date.parse(storedAt);
  return !(lead <= futureWindowMs && lead >= -pastWindowMs);
};

/**
 * Each held message's flag, by message id (unflagged ones are absent). The messages are one
 * chat's, in any order; each is checked against those stored before it (by `seq`), so the
 * earlier of two copies stays unflagged.
 */
export const orderFlags = (messages: readonly Sequenced[]): Map<string, OrderFlag> => {
  const flags = new Map<string, OrderFlag>();
  const sorted = [...messages].filter(isV2).sort((a, b) => a.seq - b.seq);
  const byClientId = new Map<string, (typeof sorted)[number]>();
  for (const m of sorted) {
    const key = `${m.sender._id}:${m.clientMessageId}`;
    if (m.clientMessageId && !byClientId.has(key)) byClientId.set(key, m);
  }
  for (const [index, m] of sorted.entries()) {
    const earlier = sorted.slice(0, index).filter((e) => e.sender._id === m.sender._id);
    const counter = m.signature.counter;
    if (earlier.some((e) => e.clientMessageId === m.clientMessageId || e.signature.counter === counter)) {
      flags.set(m._id, 'replayed');
      continue;
    }
    const prev = m.signature.prev ? byClientId.get(`${m.sender._id}:${m.signature.prev}`) : undefined;
    if (
      earlier.some((e) => e.signature.counter > counter) ||
      (prev && (prev.seq > m.seq || prev.signature.counter >= counter))
    ) {
      flags.set(m._id, 'reordered');
      continue;
    }
    if (outOfTime(m.signature.signedAt, m.createdAt)) flags.set(m._id, 'out-of-time');
  }
  return flags;
};
