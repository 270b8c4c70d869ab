import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEvent } from '@veil/ports/contract';
import type { EventBus, Logger, RecordedEvent } from '@veil/ports';
import { createEmbeddedBus } from './embedded-bus.ts';
import { limitedDisk } from './testing/limited-disk.ts';

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

const fileLines = async () => (await readFile(path.join(dataDir, 'message.jsonl'), 'utf8')).split('\n');

describe('embedded log on a full disk', () => {
  it('acknowledges nothing a short write left partly on disk, keeps none of it, and writes again once space is freed', async () => {
    const disk = limitedDisk();
    const bus = await createEmbeddedBus({ dataDir, log: recording, openFile: disk.openFile });
    const delivered: RecordedEvent[] = [];
    const follower = await bus.follow({
      context: 'message',
      afterPosition: 0,
      handler: async (recorded) => void delivered.push(recorded),
    });
    for (let n = 1; n <= 3; n++) await bus.append('message', testEvent('chat-1', { n }));

    // Room for half a record: the first write stores part of it and reports no error; the
    // write of the rest meets ENOSPC. The appends queued behind it fail with it.
    const recordBytes = (await readFile(path.join(dataDir, 'message.jsonl'))).length / 3;
    disk.setFreeBytes(Math.floor(recordBytes / 2));
    const refused = await Promise.allSettled(
      [4, 5, 6].map((n) => bus.append('message', testEvent('chat-1', { n }))),
    );
    for (const outcome of refused)
      expect(outcome).toMatchObject({ status: 'rejected', reason: { code: 'UNAVAILABLE' } });
    // The refused events are gone from reads as well, not only from the file.
    expect(await dataOf(bus, 'chat-1')).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await bus.headPosition('message')).toBe(3);

    // Still full: refused again, cleanly.
    await expect(bus.append('message', testEvent('chat-1', { n: 7 }))).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    expect(logged.filter((l) => l.level === 'error')).toHaveLength(1);

    disk.setFreeBytes(Infinity);
    expect(await bus.append('message', testEvent('chat-1', { n: 8 }))).toEqual({
      position: 4,
      duplicate: false,
    });
    expect(logged.at(-1)).toEqual({ level: 'info', msg: 'the event log writes to disk again' });
    await expect.poll(() => delivered.length).toBe(4);
    expect(delivered.map((r) => r.event.data)).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 8 }]);
    await follower.stop();
    await bus.close();

    // The file holds exactly the acknowledged records, each whole.
    const lines = await fileLines();
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((line) => JSON.parse(line).e.data)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 3 },
      { n: 8 },
    ]);
    const reopened = await createEmbeddedBus({ dataDir, log: recording });
    expect(await dataOf(reopened, 'chat-1')).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 8 }]);
    await reopened.close();
  });

  it('keeps version checks true across a refused write', async () => {
    const disk = limitedDisk();
    const bus = await createEmbeddedBus({ dataDir, log: recording, openFile: disk.openFile });
    await bus.append('message', testEvent('claim'));
    disk.setFreeBytes(0);
    await expect(bus.append('message', testEvent('claim'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    });
    disk.setFreeBytes(Infinity);
    // The refused append did not move the stream: the same expected version passes now, once.
    const retry = testEvent('claim');
    expect((await bus.append('message', retry, { expectedVersion: 1 })).position).toBe(2);
    await expect(bus.append('message', testEvent('claim'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
    });
    // A repeat of an event refused earlier is a new append, not a duplicate of something lost.
    await bus.close();
  });
});

describe('embedded log damaged on disk', () => {
  it('refuses to open a log damaged before its last line, naming the file and the way out', async () => {
    const bus = await createEmbeddedBus({ dataDir, log: recording });
    for (let n = 1; n <= 3; n++) await bus.append('message', testEvent('s', { n }));
    await bus.close();
    const lines = await fileLines();
    lines[1] = lines[1]!.replace('"p":2', '"p":2,#');
    await writeFile(path.join(dataDir, 'message.jsonl'), lines.join('\n'));

    const reopened = await createEmbeddedBus({ dataDir, log: recording });
    const file = path.join(dataDir, 'message.jsonl');
    const firstLineBytes = Buffer.byteLength(lines[0]!) + 1;
    await expect(reopened.readStream('message', 's')).rejects.toThrow(
      `The event log ${file} is damaged at line 2 (byte ${firstLineBytes})`,
    );
    await expect(reopened.readStream('message', 's')).rejects.toThrow(
      `truncate -s ${firstLineBytes} ${file}`,
    );
    // Nothing was cut: the acknowledged events after the damage are still in the file.
    expect((await fileLines()).filter(Boolean)).toHaveLength(3);
    await reopened.close();
  });

  it('refuses a log whose positions skip, rather than renumber it', async () => {
    const bus = await createEmbeddedBus({ dataDir, log: recording });
    for (let n = 1; n <= 3; n++) await bus.append('message', testEvent('s', { n }));
    await bus.close();
    const lines = await fileLines();
    await writeFile(path.join(dataDir, 'message.jsonl'), [lines[0], lines[2], ''].join('\n'));
    const reopened = await createEmbeddedBus({ dataDir, log: recording });
    await expect(reopened.headPosition('message')).rejects.toThrow('does not hold position 2');
    await reopened.close();
  });
});
