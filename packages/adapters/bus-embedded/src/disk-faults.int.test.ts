import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEvent } from '@veil/ports/contract';
import type { EventBus, Logger, RecordedEvent } from '@veil/ports';
import { createEmbeddedBus } from './embedded-bus.ts';
import { limitedDisk } from './testing/limited-disk.ts';
import { notesCompanion } from './testing/notes-companion.ts';

const logged: { level: string; msg: string }[] = [];
const recording: Logger = {
  debug() {},
  info: (_fields: unknown, msg?: string) => void logged.push({ level: 'info', msg: msg ?? '' }),
  warn: (_fields: unknown, msg?: string) => void logged.push({ level: 'warn', msg: msg ?? '' }),
  error: (_fields: unknown, msg?: string) => void logged.push({ level: 'error', msg: msg ?? '' }),
  child: () => recording,
};

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'veil-disk-'));
  logged.length = 0;
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const dataOf = async (bus: EventBus, streamId: string) =>
  (await bus.readStream('message', streamId)).events.map((e) => e.event.data);

const logFile = () => path.join(dataDir, 'event-log.sqlite');

/** What the file holds, read by a connection of its own. */
const storedData = () => {
  const db = new DatabaseSync(logFile(), { readOnly: true });
  const rows = db.prepare("SELECT event FROM events WHERE context = 'message' ORDER BY position").all();
  db.close();
  return rows.map((row) => JSON.parse(row.event as string).data);
};

/** Big enough that each event needs pages of its own: a full disk cannot hide it in free space. */
const padding = 'x'.repeat(6000);

describe('embedded log on a full disk', () => {
  it('acknowledges nothing of a commit the disk refused, keeps none of it, and writes again once space is freed', async () => {
    const disk = limitedDisk();
    const bus = await createEmbeddedBus({ dataDir, log: recording, pageLimit: disk.pageLimit });
    const delivered: RecordedEvent[] = [];
    const follower = await bus.follow({
      context: 'message',
      afterPosition: 0,
      handler: async (recorded) => void delivered.push(recorded),
    });
    for (let n = 1; n <= 3; n++) await bus.append('message', testEvent('chat-1', { n, padding }));

    // Room for part of one event: the commit fails with SQLITE_FULL and is rolled back whole.
    // The appends queued behind it fail with it.
    disk.setFreePages(1);
    const refused = await Promise.allSettled(
      [4, 5, 6].map((n) => bus.append('message', testEvent('chat-1', { n, padding }))),
    );
    for (const outcome of refused)
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'UNAVAILABLE' } });
    // Reads keep working and never show the refused events.
    const dataOfChat = async () => (await dataOf(bus, 'chat-1')).map((data) => (data as { n: number }).n);
    expect(await dataOfChat()).toEqual([1, 2, 3]);
    expect(await bus.headPosition('message')).toBe(3);

    // Still full: refused again, cleanly.
    await expect(bus.append('message', testEvent('chat-1', { n: 7, padding }))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(logged.filter((l) => l.level === 'error')).toHaveLength(1);

    disk.setFreePages(Infinity);
    expect(await bus.append('message', testEvent('chat-1', { n: 8, padding }))).toEqual({
      position: 4,
      duplicate: false,
    });
    expect(logged.at(-1)).toEqual({ level: 'info', msg: 'the event log writes to disk again' });
    await expect.poll(() => delivered.length).toBe(4);
    expect(delivered.map((r) => (r.event.data as { n: number }).n)).toEqual([1, 2, 3, 8]);
    await follower.stop();
    await bus.close();

    // The file holds exactly the acknowledged events.
    expect(storedData().map((data) => data.n)).toEqual([1, 2, 3, 8]);
    const reopened = await createEmbeddedBus({ dataDir, log: recording });
    expect((await dataOf(reopened, 'chat-1')).map((data) => (data as { n: number }).n)).toEqual([1, 2, 3, 8]);
    await reopened.close();
  });

  it('keeps version checks true across a refused write', async () => {
    const disk = limitedDisk();
    const bus = await createEmbeddedBus({ dataDir, log: recording, pageLimit: disk.pageLimit });
    await bus.append('message', testEvent('claim', { padding }));
    disk.setFreePages(0);
    await expect(
      bus.append('message', testEvent('claim', { padding }), { expectedVersion: 1 }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    disk.setFreePages(Infinity);
    // The refused append did not move the stream: the same expected version passes now, once.
    const retry = testEvent('claim', { padding });
    expect((await bus.append('message', retry, { expectedVersion: 1 })).position).toBe(2);
    await expect(bus.append('message', testEvent('claim'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
    });
    await bus.close();
  });
});

describe("embedded log whose commits carry another store's writes", () => {
  it('refuses the whole commit when those writes do not fit, and stores both once space is freed', async () => {
    const disk = limitedDisk();
    const bus = await createEmbeddedBus({
      dataDir,
      log: recording,
      pageLimit: disk.pageLimit,
      companion: notesCompanion,
    });
    // A step as inline projections are: one note per event, written in the event's commit.
    const outcomes: boolean[] = [];
    const inline = bus.shared!.inlineProjections({
      encode: (changes) => changes.map((change) => ('put' in change ? change.put : null)),
      committed() {},
    });
    await inline.attach({
      contexts: ['message'],
      async catchUp() {},
      async prepare(events) {
        return events.map(({ position, event }) => ({
          collection: 'notes',
          put: { _id: String(position), text: 'x'.repeat((event.data as { noteSize: number }).noteSize) },
        }));
      },
      settled: (stored) => void outcomes.push(stored),
    });
    const notes = () => {
      const db = new DatabaseSync(logFile(), { readOnly: true });
      const rows = db.prepare('SELECT id, length(text) AS size FROM notes ORDER BY id').all();
      db.close();
      return rows.map((row) => ({ ...row }));
    };
    await bus.append('message', testEvent('s', { n: 1, noteSize: 5 }));

    // The event fits in the pages left; its note does not: nothing of the commit is stored.
    disk.setFreePages(2);
    const big = testEvent('s', { n: 2, noteSize: 60_000 });
    await expect(bus.append('message', big)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(outcomes).toEqual([true, false]);
    expect(storedData().map((data) => data.n)).toEqual([1]);
    expect(notes()).toEqual([{ id: '1', size: 5 }]);

    disk.setFreePages(Infinity);
    expect(await bus.append('message', big)).toEqual({ position: 2, duplicate: false });
    expect(outcomes).toEqual([true, false, true]);
    expect(storedData().map((data) => data.n)).toEqual([1, 2]);
    expect(notes()).toEqual([
      { id: '1', size: 5 },
      { id: '2', size: 60_000 },
    ]);
    await bus.close();
  });
});

describe('embedded log damaged on disk', () => {
  const writeSome = async () => {
    const bus = await createEmbeddedBus({ dataDir, log: recording });
    for (let n = 1; n <= 3; n++) await bus.append('message', testEvent('s', { n, padding }));
    await bus.close();
  };

  it('refuses to start on a file with damaged pages, naming it and the way out, and changes nothing', async () => {
    await writeSome();
    // Every page after the first (the schema) overwritten, as a failing disk might leave them.
    const handle = await open(logFile(), 'r+');
    const { size } = await handle.stat();
    await handle.write(Buffer.alloc(size - 4096, 0x5a), 0, size - 4096, 4096);
    await handle.close();

    const start = createEmbeddedBus({ dataDir, log: recording });
    await expect(start).rejects.toThrow(`The event log ${logFile()} is damaged`);
    await expect(start).rejects.toThrow(`sqlite3 ${logFile()} .recover`);
    const after = await open(logFile(), 'r');
    expect((await after.stat()).size).toBe(size);
    await after.close();
  });

  it('refuses a file that is not a database', async () => {
    await writeSome();
    const handle = await open(logFile(), 'r+');
    await handle.write(Buffer.from('these bytes are not a database'), 0, 30, 0);
    await handle.close();
    await expect(createEmbeddedBus({ dataDir, log: recording })).rejects.toThrow(
      `The event log ${logFile()} is damaged`,
    );
  });

  it('refuses a file written by a newer version, and leaves it as it was', async () => {
    await writeSome();
    const db = new DatabaseSync(logFile());
    db.exec('PRAGMA user_version = 99');
    db.close();
    await expect(createEmbeddedBus({ dataDir, log: recording })).rejects.toThrow(
      `The event log ${logFile()} was written by a newer version of Veil (schema 99; this version reads 1)`,
    );
    expect(storedData().map((data) => data.n)).toEqual([1, 2, 3]);
  });
});
