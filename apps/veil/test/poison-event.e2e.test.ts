import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbeddedBus } from '@veil/bus-embedded';
import { connectNats, createNatsBus } from '@veil/bus-nats';
import {
  byContext,
  parkedCollection,
  startProjection,
  type ParkedEvent,
  type ProjectionDefinition,
} from '@veil/kernel';
import type { Collection, Doc, EventBus, Logger } from '@veil/ports';
import { testData, testEvent } from '@veil/ports/contract';
import { createSqliteReadStore } from '@veil/readstore-sqlite';
import { natsUrl, uniquePrefix } from '@veil/test-env';
import { deleteStreams } from './support/cleanup.ts';

/**
 * A projection meets an event its handler always fails on (a deliberately bad one): it tries a
 * few times with growing pauses, then parks the event with its error, logs it, and applies the
 * events behind it; a restart does not meet it again. On the embedded log and on NATS.
 */
interface Entry extends Doc {
  tag: string;
}
type Models = { entries: Collection<Entry> };

const buses: [string, () => Promise<{ bus: EventBus; close(): Promise<void> }>][] = [
  [
    'embedded log',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'veil-poison-'));
      const bus = await createEmbeddedBus({ dataDir: dir, log: silentLog() });
      return { bus, close: async () => (await bus.close(), await rm(dir, { recursive: true, force: true })) };
    },
  ],
  [
    'NATS JetStream',
    async () => {
      const prefix = uniquePrefix('p');
      const connection = await connectNats({ servers: natsUrl() });
      const bus = await createNatsBus({ connection, prefix, log: silentLog() });
      return {
        bus,
        close: async () => {
          await bus.close();
          await connection.drain();
          await deleteStreams(natsUrl(), prefix);
        },
      };
    },
  ],
];

function silentLog(lines: { level: string; msg: string; fields: object }[] = []): Logger {
  const at =
    (level: string) =>
    (fields: object | string, msg = '') =>
      void lines.push(
        typeof fields === 'string' ? { level, msg: fields, fields: {} } : { level, msg, fields },
      );
  const log: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => log,
  };
  return log;
}

describe.each(buses)('a poison event (%s)', (_name, open) => {
  it('is tried again, then parked with its error, and the events behind it are applied', async () => {
    const { bus, close } = await open();
    const dir = await mkdtemp(path.join(tmpdir(), 'veil-poison-store-'));
    const file = path.join(dir, 'read-models.sqlite');
    const lines: { level: string; msg: string; fields: object }[] = [];
    const counted: ParkedEvent[] = [];
    let tries = 0;
    const start = async () => {
      const readStore = await createSqliteReadStore({ file });
      const models: Models = { entries: await readStore.collection<Entry>('entries') };
      const definition: ProjectionDefinition<Models> = {
        name: 'poison_test',
        contexts: ['message'],
        models,
        async handle({ event }, { entries }) {
          const { tag } = testData<{ tag: string }>(event);
          if (tag === 'poison') {
            tries++;
            throw new Error('cannot handle this one');
          }
          await entries.put({ _id: event.eventId, tag });
        },
      };
      const projection = await startProjection({
        bus: byContext(bus),
        readStore,
        log: silentLog(lines),
        definition,
        handlerAttempts: 3,
        handlerRetryFirstMs: 10,
        onParked: (parked) => counted.push(parked),
      });
      return { readStore, models, projection };
    };

    await bus.append('message', testEvent('s-1', { tag: 'before' }));
    const poison = await bus.append('message', testEvent('s-2', { tag: 'poison' }, 'Unreadable'));
    const after = await bus.append('message', testEvent('s-3', { tag: 'after' }));
    const first = await start();
    await first.projection.waitFor('message', after.position, 10_000);

    expect((await first.models.entries.find({}, { sort: { tag: 1 } })).map((e) => e.tag)).toEqual([
      'after',
      'before',
    ]);
    expect(tries).toBe(3);
    const parked = await (await first.readStore.collection<ParkedEvent>(parkedCollection)).find({});
    expect(parked).toEqual([
      expect.objectContaining({
        projection: 'poison_test',
        context: 'message',
        position: poison.position,
        eventType: 'Unreadable',
        error: 'cannot handle this one',
        attempts: 3,
      }),
    ]);
    expect(counted).toHaveLength(1);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'error',
        fields: expect.objectContaining({ position: poison.position }),
      }),
    );
    await first.projection.stop();
    await first.readStore.close();

    // A restart resumes past it: the parked event is not met again.
    const second = await start();
    await second.projection.catchUp();
    expect(tries).toBe(3);
    await second.projection.stop();
    await second.readStore.close();
    await close();
    await rm(dir, { recursive: true, force: true });
  });
});
