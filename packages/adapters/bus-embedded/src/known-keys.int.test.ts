import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { insertEventSql, logFileName, openLogDatabase } from './log-database.ts';
import { openKnownKeys } from './known-keys.ts';

const inOneRead = <T>(work: () => T) => work();

describe('the event ids and streams a log may hold, from memory', () => {
  it('says "maybe" for every event in the file once filled, over several slices, and "no" for almost all others', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'veil-known-'));
    const db = openLogDatabase(path.join(dir, logFileName));
    try {
      const insert = db.prepare(insertEventSql);
      db.exec('BEGIN');
      // More rows than one slice holds, in two contexts, with streams of many events.
      for (let i = 1; i <= 12_000; i++) {
        const context = i % 3 === 0 ? 'chat' : 'message';
        insert.run(context, i, `stream-${i % 4_000}`, `event-${i}`, '{}');
      }
      db.exec('COMMIT');

      const known = openKnownKeys(db, inOneRead);
      // Before it is filled every answer is "maybe": the log then asks the file.
      expect(known.mayHaveEvent('message', 'never-stored')).toBe(true);
      await known.filled;

      for (let i = 1; i <= 12_000; i++) {
        const context = i % 3 === 0 ? 'chat' : 'message';
        expect(known.mayHaveEvent(context, `event-${i}`)).toBe(true);
        expect(known.mayHaveStream(context, `stream-${i % 4_000}`)).toBe(true);
      }
      const strangers = Array.from({ length: 1_000 }, (_, i) => `stranger-${i}`);
      const falseEvents = strangers.filter((id) => known.mayHaveEvent('message', id)).length;
      const falseStreams = strangers.filter((id) => known.mayHaveStream('message', id)).length;
      expect(falseEvents).toBeLessThan(30);
      expect(falseStreams).toBeLessThan(30);

      known.add('message', 'added-later', 'stream-later');
      expect(known.mayHaveEvent('message', 'added-later')).toBe(true);
      expect(known.mayHaveStream('message', 'stream-later')).toBe(true);
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('stops filling when told to, and then never answers "no"', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'veil-known-'));
    const db = openLogDatabase(path.join(dir, logFileName));
    try {
      const known = openKnownKeys(db, inOneRead);
      known.stop();
      await known.filled;
      expect(known.mayHaveEvent('message', 'anything')).toBe(true);
      expect(known.mayHaveStream('message', 'anything')).toBe(true);
    } finally {
      db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
