import { copyFile, mkdtemp, readFile, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { describeEventBusContract, describeRpcContract, testEvent } from '@veil/ports/contract';
import type { Logger } from '@veil/ports';
import { createEmbeddedBus } from './embedded-bus.ts';
import { createEmbeddedRpc } from './embedded-rpc.ts';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

const tempDir = () => mkdtemp(path.join(tmpdir(), 'veil-bus-'));

describeEventBusContract('embedded', async () => {
  const dataDir = await tempDir();
  const bus = await createEmbeddedBus({ dataDir, log: quiet });
  return {
    bus,
    // A second process would open the same file; here the first one closes before the reopen.
    reopen: async () => {
      await bus.close();
      return createEmbeddedBus({ dataDir, log: quiet });
    },
    teardown: async () => {
      await bus.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

describeRpcContract('embedded', async () => {
  const rpc = createEmbeddedRpc({ log: quiet });
  return { rpcs: [rpc, rpc], teardown: async () => {} };
});

describe('embedded log on disk', () => {
  it('has every acknowledged event in the file when append resolves', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    const event = testEvent('on-disk', { secret: 'ciphertext-only' });
    const { position } = await bus.append('message', event);
    // Read by a connection of its own, as a process started after a crash would.
    const file = new DatabaseSync(path.join(dataDir, 'event-log.sqlite'), { readOnly: true });
    const stored = file.prepare('SELECT position, event FROM events WHERE event_id = ?').get(event.eventId);
    file.close();
    expect(stored).toEqual({ position, event: JSON.stringify(event) });
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('blanks an erased event in the file, keeping its position, and leaves no copy once closed', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    const file = path.join(dataDir, 'event-log.sqlite');
    await bus.append('message', testEvent('before'));
    const erased = await bus.append('message', testEvent('gone', { secret: 'ciphertext-to-forget' }));
    await bus.append('message', testEvent('after', { n: 3 }));
    await bus.erase('message', [erased.position]);
    const db = new DatabaseSync(file, { readOnly: true });
    expect(db.prepare('SELECT event FROM events WHERE position = ?').get(erased.position)).toEqual({
      event: '',
    });
    db.close();
    await bus.close();
    // Closed: the journal is folded into the file, whose free space SQLite zeroes.
    expect((await readFile(file)).includes('ciphertext-to-forget')).toBe(false);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers a repeat of a pending append only once the original is on disk', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    const event = testEvent('repeat', { n: 1 });
    const settled: string[] = [];
    const original = bus.append('message', event).then((r) => (settled.push('original'), r));
    const repeat = bus.append('message', event).then((r) => (settled.push('repeat'), r));
    // The repeat arrived before the original's fsync: it must not be acknowledged first.
    expect(await repeat).toEqual({ position: (await original).position, duplicate: true });
    expect(settled).toEqual(['original', 'repeat']);
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('checks an append against what became durable after reads of the same turn began', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    // Holds the file's write lock, so the writer thread's commit waits until it is released.
    const blocker = new DatabaseSync(path.join(dataDir, 'event-log.sqlite'));
    blocker.exec('BEGIN IMMEDIATE');
    const event = testEvent('checked', { n: 1 });
    const original = bus.append('message', event);
    // Made in the turn the original's commit is settled in, after that turn's reads began.
    const repeat = original.then(() => bus.append('message', event));
    await new Promise<void>((resolve) =>
      setTimeout(async () => {
        await bus.readStream('message', 'another-stream');
        blocker.exec('COMMIT');
        // The writer makes the original durable while this turn goes on.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
        resolve();
      }, 20),
    );
    expect(await repeat).toEqual({ position: (await original).position, duplicate: true });
    expect(await bus.headPosition('message')).toBe(1);
    blocker.close();
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows an accepted append to stream reads at once, and to followers once it is durable', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    const appended = bus.append('chat', testEvent('pair-a-b', { n: 1 }), { expectedVersion: 0 });
    // The writer thread has not answered yet: nothing is durable, but the claim is visible, as
    // the version check sees it, so a racer that lost re-reads the winner's event.
    expect(await bus.headPosition('chat')).toBe(0);
    expect((await bus.readLast('chat', 'pair-a-b'))?.event.data).toEqual({ n: 1 });
    expect((await bus.readStream('chat', 'pair-a-b')).version).toBe(1);
    await expect(
      bus.append('chat', testEvent('pair-a-b', { n: 2 }), { expectedVersion: 0 }),
    ).rejects.toMatchObject({ code: 'VERSION_CONFLICT' });
    expect(await appended).toEqual({ position: 1, duplicate: false });
    expect(await bus.headPosition('chat')).toBe(1);
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('drops the torn end of a commit a crash interrupted, and appends after it', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    for (let n = 1; n <= 3; n++) await bus.append('chat', testEvent('t', { n }));
    // The files as a crash would leave them: the commits in the journal, not yet in the database,
    // and the last commit's final bytes never written.
    const crashed = await tempDir();
    for (const name of ['event-log.sqlite', 'event-log.sqlite-wal'])
      await copyFile(path.join(dataDir, name), path.join(crashed, name));
    await bus.close();
    const journal = path.join(crashed, 'event-log.sqlite-wal');
    await truncate(journal, (await stat(journal)).size - 100);

    const reopened = await createEmbeddedBus({ dataDir: crashed, log: quiet });
    expect(await reopened.headPosition('chat')).toBe(2);
    expect((await reopened.append('chat', testEvent('t', { n: 4 }))).position).toBe(3);
    expect((await reopened.readStream('chat', 't')).events.map((e) => e.event.data)).toEqual([
      { n: 1 },
      { n: 2 },
      { n: 4 },
    ]);
    await reopened.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(crashed, { recursive: true, force: true });
  });

  it('refuses invalid stream ids and contexts', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    await expect(bus.append('chat', testEvent('a.b'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(bus.append('../etc', testEvent('ok'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('reports durable writes slower than its threshold to the operator', async () => {
    const dataDir = await tempDir();
    const warnings: unknown[] = [];
    const listening: Logger = { ...quiet, warn: (fields: unknown) => warnings.push(fields) };
    // Every write takes longer than -1 ms: the first is reported, the rest wait for the next minute.
    const bus = await createEmbeddedBus({ dataDir, log: listening, slowWriteMs: -1 });
    for (let n = 0; n < 3; n++) await bus.append('chat', testEvent(`s${n}`));
    expect(warnings).toEqual([expect.objectContaining({ context: 'chat', slowWrites: 1, eventsInLast: 1 })]);
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });
});
