import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * An embedded event log written directly (one `{"p","e"}` line per event), for the benches that
 * start Veil on data of a given size.
 */
export const writeLog = async (file: string, events: Iterable<unknown>) => {
  const out = createWriteStream(file);
  let position = 0;
  for (const event of events) {
    if (!out.write(`${JSON.stringify({ p: ++position, e: event })}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return position;
};

/** An event envelope with ids and times derived from `i`, so generated logs are reproducible. */
export const meta = (type: string, streamId: string, i: number) => ({
  type,
  streamId,
  eventId: `E${type.slice(0, 4)}${i.toString(36).padStart(10, '0')}`,
  occurredAt: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
  schemaVersion: 1,
});
