// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- bloomfilter ships no types: the reference brings its declaration to every project compiling this module
/// <reference path="./bloomfilter.d.ts" />
import { BloomFilter } from 'bloomfilter';
import type { DatabaseSync } from 'node:sqlite';
import { setImmediate as turnEnded } from 'node:timers/promises';

/**
 * Which event ids and streams the log may hold, answered from memory: two Bloom filters, over
 * `context/eventId` and `context/stream` of every event in the file. A "no" is certain, so an
 * append of a new event to a new stream (every send) skips the two index lookups that would
 * otherwise run on this thread, each after the writer thread's last commit emptied this
 * connection's page cache. A "maybe" (a real repeat, a stream that exists, or a false positive
 * about once in a hundred) falls back to the lookups.
 *
 * Filled in the background after the log opens, from the two indexes in slices, so a start on
 * a large log is not held up; until then every answer is "maybe". An append adds its keys before
 * its event can reach the file, so nothing stored is ever missing from the filters. Sized for
 * twice the events at opening (at least a million); a log that outgrows that gets more false
 * positives, never a wrong "no".
 */
export interface KnownKeys {
  mayHaveEvent(context: string, eventId: string): boolean;
  mayHaveStream(context: string, streamId: string): boolean;
  add(context: string, eventId: string, streamId: string): void;
  /** Resolves once every event in the file at opening is in the filters. */
  readonly filled: Promise<void>;
  /** Stops filling (the log is closing). */
  stop(): void;
}

const bitsPerKey = 10; // with 7 hashes: about 1 % false positives at the sized count
const hashes = 7;
const sliceRows = 5_000;

const filterFor = (keys: number) => new BloomFilter(keys * bitsPerKey, hashes);

export const openKnownKeys = (db: DatabaseSync, read: <T>(work: () => T) => T): KnownKeys => {
  // The newest row's seq, not count(*): rows are never deleted (an erased event keeps its row), so
  // it is the count, read from the end of the table instead of a scan of it at every start.
  const stored = Number(
    (db.prepare('SELECT max(seq) AS n FROM events').get() as { n: number | null }).n ?? 0,
  );
  const sized = Math.min(Math.max(2 * stored, 1_000_000), 64_000_000);
  const events = filterFor(sized);
  const streams = filterFor(sized);
  let ready = false;
  let stopped = false;
  const key = (context: string, id: string) => `${context}\u0000${id}`;

  /** Walks one index in key order, a slice per turn of the event loop. */
  const fillFrom = async (column: 'event_id' | 'stream', into: BloomFilter) => {
    const slice = db.prepare(
      `SELECT context, ${column} AS id FROM events WHERE (context, ${column}) > (?, ?) ORDER BY context, ${column} LIMIT ?`,
    );
    // Contexts are never empty, so ('', '') sorts before every row.
    let last = { context: '', id: '' };
    while (!stopped) {
      const rows = read(
        () => slice.all(last.context, last.id, sliceRows) as { context: string; id: string }[],
      );
      for (const row of rows) into.add(key(row.context, row.id));
      if (rows.length < sliceRows) return;
      last = rows.at(-1)!;
      await turnEnded();
    }
  };

  const filled = (async () => {
    await turnEnded();
    await fillFrom('event_id', events);
    await fillFrom('stream', streams);
    ready = !stopped;
  })();

  return {
    mayHaveEvent: (context, eventId) => !ready || events.test(key(context, eventId)),
    mayHaveStream: (context, streamId) => !ready || streams.test(key(context, streamId)),
    add(context, eventId, streamId) {
      events.add(key(context, eventId));
      streams.add(key(context, streamId));
    },
    filled,
    stop() {
      stopped = true;
    },
  };
};
