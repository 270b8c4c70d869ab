import { appendFile, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
    // A second process would open the same files; here the first one closes before the reopen.
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
    await bus.append('message', event);
    const file = await readFile(path.join(dataDir, 'message.jsonl'), 'utf8');
    expect(file).toContain(event.eventId);
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('overwrites an erased event in the file, in place, keeping every other line', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    const file = path.join(dataDir, 'message.jsonl');
    await bus.append('message', testEvent('before'));
    const erased = await bus.append('message', testEvent('gone', { secret: 'ciphertext-to-forget' }));
    await bus.append('message', testEvent('after', { n: 3 }));
    const size = (await stat(file)).size;
    await bus.erase('message', [erased.position]);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('ciphertext-to-forget');
    expect((await stat(file)).size).toBe(size);
    expect(text.split('\n')[1]).toMatch(/^\{"p":2,"erased":true\} +$/);
    await bus.close();
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

  it('ignores a torn last line left by a crash, and appends after it', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    await bus.append('chat', testEvent('t', { n: 1 }));
    await bus.close();
    await appendFile(path.join(dataDir, 'chat.jsonl'), '{"p":2,"e":{"type":"Ha');
    const reopened = await createEmbeddedBus({ dataDir, log: quiet });
    expect(await reopened.headPosition('chat')).toBe(1);
    const next = await reopened.append('chat', testEvent('t', { n: 2 }));
    expect(next.position).toBe(2);
    expect((await reopened.readStream('chat', 't')).events.map((e) => e.event.data)).toEqual([
      { n: 1 },
      { n: 2 },
    ]);
    await reopened.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses invalid stream ids and contexts', async () => {
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: quiet });
    await expect(bus.append('chat', testEvent('a.b'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(bus.append('../etc', testEvent('ok'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await bus.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('warns at start when the log needs more than half the heap, and not before', async () => {
    const dataDir = await tempDir();
    const first = await createEmbeddedBus({ dataDir, log: quiet });
    for (let n = 0; n < 20; n++) await first.append('chat', testEvent(`s${n}`, { padding: 'x'.repeat(400) }));
    await first.close();
    const { size } = await stat(path.join(dataDir, 'chat.jsonl'));
    const warnings: unknown[] = [];
    const listening: Logger = { ...quiet, warn: (fields: unknown) => warnings.push(fields) };
    // The same log against a heap 100 times its size, then one only twice its size.
    await (await createEmbeddedBus({ dataDir, log: listening, heapLimitBytes: size * 100 })).close();
    expect(warnings).toEqual([]);
    await (await createEmbeddedBus({ dataDir, log: listening, heapLimitBytes: size * 2 })).close();
    expect(warnings).toEqual([
      expect.objectContaining({ logMB: expect.any(Number), heapLimitMB: expect.any(Number) }),
    ]);
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
