import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmbeddedBus } from '@veil/bus-embedded';
import { limitedDisk } from '@veil/bus-embedded/testing';
import {
  byContext,
  checkpointCollection,
  parkedCollection,
  startProjection,
  type Checkpoint,
  type ParkedEvent,
  type ProjectionDefinition,
} from '@veil/kernel';
import type { Collection, Doc, EventBus } from '@veil/ports';
import { describeReadStoreContract, testData, testEvent } from '@veil/ports/contract';
import { createSqliteReadStore, logCompanionModule } from '@veil/readstore-sqlite';
import { createApi } from './support/api-client.ts';
import { startTestVeil } from './support/test-veil.ts';
import { createUser, sendDirect } from './support/users.ts';
import { silent } from './support/silent-logger.ts';

/**
 * Embedded mode: the event log and the read models in one SQLite file with one writer. Each
 * commit appends its events and stores what the projections make of them in one transaction,
 * so an acknowledged append is readable at once, a restart finds the checkpoints at the log's
 * head, and a read-model write the disk refuses takes the commit's events with it.
 */
interface Entry extends Doc {
  position: number;
  tag: string;
  padding?: string;
}
interface Tally extends Doc {
  events: number;
}
type Models = { entries: Collection<Entry>; tallies: Collection<Tally> };

/**
 * One entry per event and a tally of events read back through its own unstored writes. A tag
 * `poison` makes the handler fail; `erase` makes it erase the event's content from the log, as
 * the message timeline does with a deleted message's; `padTo` makes its document that large,
 * while the event stays small.
 */
const definitionOf = (
  models: Models,
  log: EventBus,
  name = 'test_entries',
  applied: number[] = [],
): ProjectionDefinition<Models> => ({
  name,
  contexts: ['message'],
  models,
  async handle({ event, position }, { entries, tallies }) {
    applied.push(position);
    const { tag, padTo } = testData<{ tag: string; padTo?: number }>(event);
    if (tag === 'poison') throw new Error('cannot apply this one');
    if (tag === 'erase') await log.erase('message', [position]);
    await entries.put({ _id: event.eventId, position, tag, ...(padTo && { padding: 'x'.repeat(padTo) }) });
    const tally = (await tallies.get('all')) ?? { _id: 'all', events: 0 };
    await tallies.put({ ...tally, events: tally.events + 1 });
  },
});

let dir: string;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The log and the read store sharing its file and writer, as the embedded app opens them. */
const openStores = async (pageLimit?: Int32Array) => {
  const bus = await createEmbeddedBus({
    dataDir: dir,
    log: silent,
    companion: logCompanionModule,
    ...(pageLimit && { pageLimit }),
  });
  const shared = bus.shared!;
  const store = createSqliteReadStore({ file: shared.file, sharedLog: shared });
  const inline = shared.inlineProjections(store.commitEncoder!);
  const models: Models = {
    entries: await store.collection<Entry>('entries', [{ fields: { tag: 1 } }]),
    tallies: await store.collection<Tally>('tallies'),
  };
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await store.close();
    await bus.close();
  };
  cleanups.push(close);
  return { bus, store, inline, models, close };
};

const setUp = async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'veil-inline-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
};

const start = async (stores: Awaited<ReturnType<typeof openStores>>, name?: string, applied?: number[]) => {
  const projection = await startProjection({
    bus: byContext(stores.bus),
    readStore: stores.store,
    log: silent,
    definition: definitionOf(stores.models, stores.bus, name, applied),
    inline: stores.inline,
  });
  cleanups.push(() => projection.stop());
  return projection;
};

const checkpointOf = async (stores: Awaited<ReturnType<typeof openStores>>, name = 'test_entries') =>
  (await (await stores.store.collection<Checkpoint>(checkpointCollection)).get(`${name}:message`))
    ?.position ?? 0;

const event = (stream: string, data: Record<string, unknown>) => testEvent(stream, data);

describe('inline projections in the embedded log', () => {
  it("stores a commit's read-model changes in the transaction that appends its events: read right after the acknowledgement", async () => {
    await setUp();
    const stores = await openStores();
    const projection = await start(stores);

    // Appends of one turn share a commit: each handler reads the tally the one before it staged.
    const seenAtAck = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const appended = event(`s-${i % 3}`, { tag: `t${i}` });
        const { position } = await stores.bus.append('message', appended);
        // No wait of any kind: the document is there when the append is acknowledged.
        return { position, entry: await stores.models.entries.get(appended.eventId) };
      }),
    );
    for (const { position, entry } of seenAtAck) expect(entry).toMatchObject({ position });
    expect(await stores.models.tallies.get('all')).toMatchObject({ events: 20 });
    expect(await checkpointOf(stores)).toBe(20);
    expect(projection.position('message')).toBe(20);

    // One file holds both: the log's table and the read models' tables.
    const file = new DatabaseSync(path.join(dir, 'event-log.sqlite'), { readOnly: true });
    try {
      expect(file.prepare('SELECT count(*) AS n FROM events').get()!.n).toBe(20);
      expect(file.prepare('SELECT count(*) AS n FROM entries').get()!.n).toBe(20);
    } finally {
      file.close();
    }
  });

  it("finds its checkpoint at the log's head after a restart; a projection added later catches up before it joins the commits", async () => {
    await setUp();
    let stores = await openStores();
    const first = await start(stores);
    for (let i = 0; i < 10; i++) await stores.bus.append('message', event('s', { tag: `t${i}` }));
    await first.stop();
    await stores.close();

    stores = await openStores();
    const applied: number[] = [];
    const resumed = await start(stores, 'test_entries', applied);
    expect(resumed.position('message')).toBe(10);
    expect(applied).toEqual([]);

    const laterApplied: number[] = [];
    const later = await start(stores, 'test_later', laterApplied);
    expect(laterApplied).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(later.position('message')).toBe(10);

    await stores.bus.append('message', event('s', { tag: 'after' }));
    expect([resumed.position('message'), later.position('message')]).toEqual([11, 11]);
    expect(applied).toEqual([11]);
    expect(await checkpointOf(stores, 'test_later')).toBe(11);
  });

  it('refuses the whole commit when the disk refuses its read-model changes, and stores both once it can', async () => {
    await setUp();
    const disk = limitedDisk();
    const stores = await openStores(disk.pageLimit);
    const projection = await start(stores);
    await stores.bus.append('message', event('s', { tag: 'before' }));

    // The event is small; the document its projection makes needs far more pages than are free.
    disk.setFreePages(2);
    const big = event('s', { tag: 'big', padTo: 64_000 });
    await expect(stores.bus.append('message', big)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    expect(await stores.bus.headPosition('message')).toBe(1);
    expect((await stores.bus.readStream('message', 's')).events).toHaveLength(1);
    expect(await stores.models.entries.get(big.eventId)).toBeNull();
    expect(await stores.models.tallies.get('all')).toMatchObject({ events: 1 });
    expect(projection.position('message')).toBe(1);
    expect(await checkpointOf(stores)).toBe(1);

    disk.setFreePages(Infinity);
    expect(await stores.bus.append('message', big)).toEqual({ position: 2, duplicate: false });
    expect(await stores.models.entries.get(big.eventId)).toMatchObject({ position: 2 });
    expect(await stores.models.tallies.get('all')).toMatchObject({ events: 2 });
    expect(await checkpointOf(stores)).toBe(2);
  });

  it('parks an event its handler fails on in the same commit, holding nothing back', async () => {
    await setUp();
    const stores = await openStores();
    const projection = await start(stores);
    const poison = event('s', { tag: 'poison' });
    expect(await stores.bus.append('message', poison)).toEqual({ position: 1, duplicate: false });
    const parked = await stores.store.collection<ParkedEvent>(parkedCollection);
    expect(await parked.get('test_entries:message:1')).toMatchObject({
      projection: 'test_entries',
      position: 1,
      eventId: poison.eventId,
      error: 'cannot apply this one',
    });
    expect(projection.position('message')).toBe(1);

    const next = event('s', { tag: 'next' });
    await stores.bus.append('message', next);
    expect(await stores.models.entries.get(next.eventId)).toMatchObject({ position: 2 });
    expect(await checkpointOf(stores)).toBe(2);
  });

  it('erases content a handler erases while its commit is prepared in that same commit', async () => {
    await setUp();
    const stores = await openStores();
    await start(stores);
    const kept = event('s', { tag: 'kept' });
    const erased = event('s', { tag: 'erase' });
    await Promise.all([stores.bus.append('message', kept), stores.bus.append('message', erased)]);
    expect((await stores.bus.readStream('message', 's')).events.map((e) => e.event.eventId)).toEqual([
      kept.eventId,
    ]);
    expect(await stores.models.entries.get(erased.eventId)).toMatchObject({ position: 2 });
    const file = new DatabaseSync(path.join(dir, 'event-log.sqlite'), { readOnly: true });
    try {
      expect(file.prepare('SELECT event FROM events WHERE position = 2').get()!.event).toBe('');
    } finally {
      file.close();
    }
  });
});

describeReadStoreContract("SQLite (in the event log's file, written by the log's thread)", async () => {
  const contractDir = await mkdtemp(path.join(tmpdir(), 'veil-shared-store-'));
  const bus = await createEmbeddedBus({ dataDir: contractDir, log: silent, companion: logCompanionModule });
  const store = createSqliteReadStore({ file: bus.shared!.file, sharedLog: bus.shared! });
  return {
    store,
    teardown: async () => {
      await store.close();
      await bus.close();
      await rm(contractDir, { recursive: true, force: true });
    },
  };
});

describe('the embedded app', () => {
  it('has a message in its history the moment its send is acknowledged', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'veil-inline-app-'));
    const veil = await startTestVeil({}, dir);
    cleanups.push(() => veil.destroy());
    const api = createApi(veil.url);
    const alice = await createUser(api, 'ia');
    const bob = await createUser(api, 'ib');
    for (let i = 0; i < 5; i++) {
      const sent = await sendDirect(api, alice, bob, `now ${i}`);
      expect(sent.status).toBe(201);
      const id = sent.body.data.message._id as string;
      // Read straight from the file, by a connection of its own: durable, and kept once (the
      // history reads the log itself: no timeline table holds a second copy).
      const file = new DatabaseSync(path.join(dir, 'events', 'event-log.sqlite'), { readOnly: true });
      try {
        expect(
          file.prepare("SELECT stream FROM events WHERE context = 'message' AND stream = ?").get(`msg-${id}`),
        ).toEqual({ stream: `msg-${id}` });
        expect(file.prepare("SELECT name FROM sqlite_schema WHERE name = 'message_timeline'").get()).toBe(
          undefined,
        );
      } finally {
        file.close();
      }
      const history = await api.get(
        `/api/v1/chat/getallmessages/${sent.body.data.chat._id}`,
        bob.accessToken,
      );
      expect(history.body.data.messages.map((m: { _id: string }) => m._id)).toContain(id);
    }
  });
});
