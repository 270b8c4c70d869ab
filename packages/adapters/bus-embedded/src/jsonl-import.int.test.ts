import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFile, cp, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testEvent } from '@veil/ports/contract';
import type { EventBus, Logger } from '@veil/ports';
import { createEmbeddedBus } from './embedded-bus.ts';

/**
 * A data dir from before the SQLite log: `testing/legacy-log` was written by the JSON-lines
 * adapter it replaces (three user events, twenty-six message events, version-checked appends
 * among them). The first start imports it, keeps the files renamed, and the log answers as the
 * old one did.
 */
const fixture = path.join(import.meta.dirname, 'testing', 'legacy-log');

const lines: { msg: string; fields: Record<string, unknown> }[] = [];
const recording: Logger = {
  debug() {},
  info: (fields: unknown, msg?: string) =>
    void lines.push({ msg: msg ?? '', fields: fields as Record<string, unknown> }),
  warn() {},
  error() {},
  child: () => recording,
};

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'veil-import-'));
  lines.length = 0;
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

const streamData = async (bus: EventBus, context: string, streamId: string) =>
  (await bus.readStream(context, streamId)).events.map((e) => [e.position, e.event.data]);

const countRows = () => {
  const db = new DatabaseSync(path.join(dataDir, 'event-log.sqlite'), { readOnly: true });
  const rows = db
    .prepare('SELECT context, count(*) AS n, max(position) AS head FROM events GROUP BY context')
    .all();
  db.close();
  return rows;
};

describe('a data dir with the earlier JSON-lines log', () => {
  it('is imported at the first start: the same events at the same positions, the files kept renamed', async () => {
    await cp(fixture, dataDir, { recursive: true });
    // A crash had torn the last line of an append that was never acknowledged.
    await appendFile(path.join(dataDir, 'message.jsonl'), '{"p":27,"e":{"type":"MessageS');

    const bus = await createEmbeddedBus({ dataDir, log: recording });
    expect(await bus.headPosition('user')).toBe(3);
    expect(await bus.headPosition('message')).toBe(26);
    expect(await streamData(bus, 'user', 'user-alice')).toEqual([
      [1, { userId: 'alice', username: 'alice' }],
      [3, { userId: 'alice', username: 'alice2' }],
    ]);
    expect((await bus.readStream('message', 'msg-m3')).version).toBe(26);
    // Versions and event ids carry over: a stale claim conflicts, a repeat is a duplicate.
    await expect(bus.append('user', testEvent('user-bob'), { expectedVersion: 0 })).rejects.toMatchObject({
      code: 'VERSION_CONFLICT',
    });
    const [first] = (await bus.readStream('message', 'msg-m0')).events;
    expect(await bus.append('message', first!.event)).toEqual({ position: first!.position, duplicate: true });
    expect((await bus.append('message', testEvent('msg-new'))).position).toBe(27);

    // Every event reaches a follower from position 0, in order.
    const seen: number[] = [];
    const follower = await bus.follow({
      context: 'message',
      afterPosition: 0,
      handler: (recorded) => void seen.push(recorded.position),
    });
    await expect.poll(() => seen.length).toBe(27);
    expect(seen).toEqual(Array.from({ length: 27 }, (_, i) => i + 1));
    await follower.stop();
    await bus.close();

    expect((await readdir(dataDir)).filter((name) => name.includes('.jsonl')).sort()).toEqual([
      'message.jsonl.imported',
      'user.jsonl.imported',
    ]);
    const imported = lines.filter((line) => line.msg === 'imported the event log');
    expect(imported.map((line) => [line.fields.context, line.fields.events])).toEqual([
      ['message', 26],
      ['user', 3],
    ]);

    // The next start imports nothing again.
    lines.length = 0;
    const again = await createEmbeddedBus({ dataDir, log: recording });
    expect(await again.headPosition('message')).toBe(27);
    await again.close();
    expect(lines).toEqual([]);
  });

  it('imports nothing twice when a start stopped after the copy but before the rename', async () => {
    await cp(fixture, dataDir, { recursive: true });
    await (await createEmbeddedBus({ dataDir, log: recording })).close();
    await rename(path.join(dataDir, 'user.jsonl.imported'), path.join(dataDir, 'user.jsonl'));

    const bus = await createEmbeddedBus({ dataDir, log: recording });
    expect(await streamData(bus, 'user', 'user-bob')).toEqual([[2, { userId: 'bob', username: 'bob' }]]);
    await bus.close();
    expect(countRows()).toEqual([
      { context: 'message', n: 26, head: 26 },
      { context: 'user', n: 3, head: 3 },
    ]);
  });

  it('resumes an import that a crash (kill -9) interrupted, losing and doubling nothing', async () => {
    const events = 200_000;
    const out = createWriteStream(path.join(dataDir, 'message.jsonl'));
    for (let p = 1; p <= events; p++) {
      const line = `${JSON.stringify({ p, e: testEvent(`msg-${p}`, { p }) })}\n`;
      if (!out.write(line)) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');

    // A process of its own opens the log (importing it) and is killed once part is stored.
    const child = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { createEmbeddedBus } from '@veil/bus-embedded';
         const quiet = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
         await createEmbeddedBus({ dataDir: process.argv[1], log: quiet });`,
        dataDir,
      ],
      { cwd: import.meta.dirname, stdio: 'ignore' },
    );
    const exited = once(child, 'exit');
    const stored = () => {
      try {
        return Number(countRows()[0]?.n ?? 0);
      } catch {
        return 0; // the file or its schema is not there yet
      }
    };
    await expect.poll(stored, { timeout: 60_000, interval: 20 }).toBeGreaterThan(0);
    child.kill('SIGKILL');
    await exited;
    const before = stored();
    expect(before).toBeLessThan(events);

    const bus = await createEmbeddedBus({ dataDir, log: recording });
    expect(
      lines.find((line) => line.msg.startsWith('importing the event log from'))?.fields.resumeAfter,
    ).toBe(before);
    expect(await bus.headPosition('message')).toBe(events);
    for (const p of [1, before, before + 1, events])
      expect(await streamData(bus, 'message', `msg-${p}`)).toEqual([[p, { p }]]);
    await bus.close();
    expect(countRows()).toEqual([{ context: 'message', n: events, head: events }]);
  });

  it('refuses a damaged file and imports nothing from it', async () => {
    await cp(fixture, dataDir, { recursive: true });
    const file = path.join(dataDir, 'user.jsonl');
    const [first, , third] = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, [first, third, ''].join('\n'));
    await expect(createEmbeddedBus({ dataDir, log: recording })).rejects.toThrow(
      `The event log ${file} is damaged at line 2 (byte ${Buffer.byteLength(first!) + 1}): it does not hold position 2`,
    );
    expect(await readdir(dataDir)).toContain('user.jsonl');
  });
});
