import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedBus } from '@veil/bus-embedded';
import {
  byContext,
  checkpointCollection,
  resetProjection,
  startProjection,
  type Checkpoint,
  type ProjectionDefinition,
  type RunningProjection,
} from '@veil/kernel';
import type { Change, Collection, Doc, EventBus, Logger, ReadStore } from '@veil/ports';
import { testData, testEvent } from '@veil/ports/contract';
import { createSqliteReadStore } from '@veil/readstore-sqlite';
import { silent } from './support/silent-logger.ts';

/**
 * The projection runner on the embedded log and a SQLite file: documents and checkpoint are
 * stored by one write, a failed write stores neither and is tried again, a restart resumes from
 * the checkpoint, and a checkpoint from another log stops the start.
 */
interface Entry extends Doc {
  position: number;
  tag: string;
}
interface Tally extends Doc {
  events: number;
}
type Models = { entries: Collection<Entry>; tallies: Collection<Tally> };

/** A logger that keeps what it is given, to read the catch-up lines. */
const recordingLogger = () => {
  const lines: { level: string; msg: string; fields: Record<string, unknown> }[] = [];
  const at =
    (level: string) =>
    (obj: object | string, msg = '') => {
      if (typeof obj === 'string') lines.push({ level, msg: obj, fields: {} });
      else lines.push({ level, msg, fields: obj as Record<string, unknown> });
    };
  const log: Logger = {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: () => log,
  };
  return { log, lines };
};

/** Puts one entry per event, and counts events in a tally it reads back (so it needs its own unstored writes). */
const definitionOf = (models: Models, applied: number[] = []): ProjectionDefinition<Models> => ({
  name: 'test_entries',
  contexts: ['message'],
  models,
  async handle({ event, position }, { entries, tallies }) {
    applied.push(position);
    const { tag } = testData<{ tag: string }>(event);
    await entries.put({ _id: event.eventId, position, tag });
    const tally = (await tallies.get('all')) ?? { _id: 'all', events: 0 };
    await tallies.put({ ...tally, events: tally.events + 1 });
  },
});

/** The store, recording each write's changes; the models refuse writes that bypass `write`. */
const recordingStore = (inner: ReadStore) => {
  const writes: Change[][] = [];
  const store: ReadStore = {
    transactional: inner.transactional,
    collection: inner.collection.bind(inner),
    drop: (name) => inner.drop(name),
    async write(changes) {
      writes.push([...changes]);
      await inner.write(changes);
    },
    close: () => inner.close(),
  };
  return { store, writes };
};
const guarded = <T extends Doc>(collection: Collection<T>): Collection<T> => ({
  ...collection,
  put: () => Promise.reject(new Error('a projection must not write outside write()')),
  delete: () => Promise.reject(new Error('a projection must not write outside write()')),
});

let dir: string;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const setUp = async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'veil-projection-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const openBus = async () => {
    const bus = await createEmbeddedBus({ dataDir: path.join(dir, 'events'), log: silent });
    return bus;
  };
  const openStore = async (unique = false) => {
    const store = createSqliteReadStore({ file: path.join(dir, 'read-models.sqlite') });
    const models: Models = {
      entries: await store.collection<Entry>('entries', [{ fields: { tag: 1 }, unique }]),
      tallies: await store.collection<Tally>('tallies'),
    };
    return { store, models };
  };
  return { openBus, openStore };
};

const append = async (bus: EventBus, count: number, tag = (i: number) => `t${i}`) => {
  let position = 0;
  for (let i = 0; i < count; i++) {
    ({ position } = await bus.append('message', testEvent(`s-${i % 7}`, { tag: tag(i) })));
  }
  return position;
};

const checkpointOf = async (store: ReadStore) =>
  (await (await store.collection<Checkpoint>(checkpointCollection)).get('test_entries:message'))?.position ??
  0;

describe('projections store their documents and checkpoint together', () => {
  it('stores each batch of documents with the checkpoint of exactly those events, in few writes', async () => {
    const { openBus, openStore } = await setUp();
    const bus = await openBus();
    cleanups.push(() => bus.close());
    const head = await append(bus, 2_500);
    const { store: sqlite, models } = await openStore();
    const { store, writes } = recordingStore(sqlite);
    cleanups.push(() => store.close());
    const guardedModels = { entries: guarded(models.entries), tallies: guarded(models.tallies) };
    const projection = await startProjection({
      bus: byContext(bus),
      readStore: store,
      log: silent,
      definition: definitionOf(guardedModels),
    });
    cleanups.push(() => projection.stop());
    await projection.catchUp();
    const live = await append(bus, 30);
    await projection.waitFor('message', live);

    expect(await models.entries.count()).toBe(2_530);
    // Each handler read the tally its previous events had staged, stored or not.
    expect(await models.tallies.get('all')).toEqual({ _id: 'all', events: 2_530 });
    expect(await checkpointOf(store)).toBe(live);
    // The replay went in batches of at most 1,000 events, not a write per event.
    const replay = writes.filter((changes) =>
      changes.some((c) => 'put' in c && c.collection === 'entries' && (c.put as Entry).position <= head),
    );
    expect(replay.length).toBeLessThanOrEqual(4);
    for (const changes of writes) {
      const positions = changes.flatMap((c) =>
        'put' in c && c.collection === 'entries' ? [(c.put as Entry).position] : [],
      );
      const marks = changes.filter((c) => c.collection === checkpointCollection);
      expect(marks).toHaveLength(1);
      // The checkpoint is the last change and covers the newest event in the same write.
      expect(changes.at(-1)).toEqual(marks[0]);
      expect(marks[0]).toMatchObject({ put: { position: Math.max(...positions) } });
    }
  });

  it('holds back a write that fails (nothing stored, position unchanged) and stores it once it can', async () => {
    const { openBus, openStore } = await setUp();
    const bus = await openBus();
    cleanups.push(() => bus.close());
    const first = await append(bus, 3);
    const { store, models } = await openStore(true);
    cleanups.push(() => store.close());
    const { log, lines } = recordingLogger();
    const projection = await startProjection({
      bus: byContext(bus),
      readStore: store,
      log,
      definition: definitionOf(models),
      retryDelayMs: 20,
    });
    cleanups.push(() => projection.stop());
    await projection.waitFor('message', first);

    // Another writer holds the tag the next event brings, so its write breaks the unique index.
    await models.entries.put({ _id: 'squatter', position: 0, tag: 'taken' });
    const blocked = (await bus.append('message', testEvent('s-x', { tag: 'taken' }))).position;
    await expect(projection.waitFor('message', blocked, 300)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(projection.position('message')).toBe(first);
    expect(await checkpointOf(store)).toBe(first);
    expect(await models.tallies.get('all')).toEqual({ _id: 'all', events: 3 });

    // Tried every 20 ms for 300 ms, said once: a failing store must not flood the log.
    expect(lines.filter((line) => line.msg === 'read model not stored; retrying')).toHaveLength(1);

    await models.entries.delete('squatter');
    await projection.waitFor('message', blocked, 5_000);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'info', msg: 'read model stored again' }));
    expect(await checkpointOf(store)).toBe(blocked);
    expect(await models.entries.count({ tag: 'taken' })).toBe(1);
    expect(await models.tallies.get('all')).toEqual({ _id: 'all', events: 4 });
  });

  it('stops while its write keeps failing, storing none of it, and applies those events at the next start', async () => {
    const { openBus, openStore } = await setUp();
    const bus = await openBus();
    cleanups.push(() => bus.close());
    const first = await append(bus, 2);
    const { store, models } = await openStore(true);
    cleanups.push(() => store.close());
    const options = { bus: byContext(bus), readStore: store, log: silent, retryDelayMs: 20 };
    let projection = await startProjection({ ...options, definition: definitionOf(models) });
    await projection.waitFor('message', first);
    await models.entries.put({ _id: 'squatter', position: 0, tag: 'taken' });
    const blocked = (await bus.append('message', testEvent('s-x', { tag: 'taken' }))).position;
    await expect(projection.waitFor('message', blocked, 200)).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    await projection.stop(); // gives up after a few attempts instead of waiting for ever
    expect(await checkpointOf(store)).toBe(first);
    expect(await models.tallies.get('all')).toEqual({ _id: 'all', events: 2 });

    await models.entries.delete('squatter');
    const applied: number[] = [];
    projection = await startProjection({ ...options, definition: definitionOf(models, applied) });
    cleanups.push(() => projection.stop());
    await projection.catchUp();
    expect(applied).toEqual([blocked]);
    expect(await checkpointOf(store)).toBe(blocked);
    expect(await models.tallies.get('all')).toEqual({ _id: 'all', events: 3 });
  });

  it('resumes from its checkpoint after a restart, applying only the new events, and says so', async () => {
    const { openBus, openStore } = await setUp();
    let bus = await openBus();
    await append(bus, 120);
    let { store, models } = await openStore();
    const firstRun: number[] = [];
    let projection: RunningProjection = await startProjection({
      bus: byContext(bus),
      readStore: store,
      log: silent,
      definition: definitionOf(models, firstRun),
    });
    await projection.catchUp();
    await projection.stop();
    await store.close();
    await bus.close();
    expect(firstRun).toHaveLength(120);

    bus = await openBus();
    cleanups.push(() => bus.close());
    const head = await append(bus, 5);
    ({ store, models } = await openStore());
    cleanups.push(() => store.close());
    const secondRun: number[] = [];
    const { log, lines } = recordingLogger();
    projection = await startProjection({
      bus: byContext(bus),
      readStore: store,
      log,
      definition: definitionOf(models, secondRun),
    });
    cleanups.push(() => projection.stop());
    await projection.catchUp();
    expect(secondRun).toEqual([121, 122, 123, 124, 125]);
    expect(await models.entries.count()).toBe(125);
    expect(await models.tallies.get('all')).toEqual({ _id: 'all', events: 125 });
    expect(await checkpointOf(store)).toBe(head);
    expect(lines.find((line) => line.msg === 'read model caught up')?.fields).toMatchObject({
      projection: 'test_entries',
      applied: 5,
    });
    expect(lines.some((line) => /behind the event log/.test(line.msg))).toBe(true);
  });

  it('waits for a catch-up that takes longer than its stall limit while it moves, and fails one that stops', async () => {
    const { openBus, openStore } = await setUp();
    const bus = await openBus();
    cleanups.push(() => bus.close());
    await append(bus, 20);
    const { store, models } = await openStore();
    cleanups.push(() => store.close());
    // Each event takes 20 ms: the 20 take far longer than the 50 ms allowed without progress.
    let stuck = false;
    let release = () => {};
    const stuckUntil = new Promise<void>((resolve) => (release = resolve));
    const definition = definitionOf(models);
    const slow: ProjectionDefinition<Models> = {
      ...definition,
      async handle(recorded, staged) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        if (stuck) await stuckUntil;
        await definition.handle(recorded, staged);
      },
    };
    const projection = await startProjection({
      bus: byContext(bus),
      readStore: store,
      log: silent,
      definition: slow,
    });
    await projection.catchUp(50);
    expect(await models.entries.count()).toBe(20);

    stuck = true;
    await append(bus, 1);
    await expect(projection.catchUp(50)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    release();
    await projection.stop();
  });

  it('refuses to start on read models from another log, naming the way out', async () => {
    const { openBus, openStore } = await setUp();
    const bus = await openBus();
    cleanups.push(() => bus.close());
    await append(bus, 10);
    const { store, models } = await openStore();
    cleanups.push(() => store.close());
    await store.collection(checkpointCollection);
    await store.write([
      { collection: checkpointCollection, put: { _id: 'test_entries:message', position: 50 } as Doc },
    ]);
    await expect(
      startProjection({
        bus: byContext(bus),
        readStore: store,
        log: silent,
        definition: definitionOf(models),
      }),
    ).rejects.toThrow(/up to position 50, but that log ends at 10.*npm run rebuild/);
  });

  it('rebuilds from the start after a reset, to the same documents', async () => {
    const { openBus, openStore } = await setUp();
    const bus = await openBus();
    cleanups.push(() => bus.close());
    await append(bus, 40);
    const { store, models } = await openStore();
    cleanups.push(() => store.close());
    const definition = definitionOf(models);
    let projection = await startProjection({
      bus: byContext(bus),
      readStore: store,
      log: silent,
      definition,
    });
    await projection.catchUp();
    await projection.stop();
    const before = await models.entries.find({}, { sort: { position: 1 } });

    await resetProjection(store, definition);
    expect(await models.entries.count()).toBe(0);
    expect(await checkpointOf(store)).toBe(0);
    projection = await startProjection({ bus: byContext(bus), readStore: store, log: silent, definition });
    cleanups.push(() => projection.stop());
    await projection.catchUp();
    expect(await models.entries.find({}, { sort: { position: 1 } })).toEqual(before);
  });
});
