import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { createEmbeddedBus } from '@veil/bus-embedded';
import { byContext, startProjection, type RunningProjection } from '@veil/kernel';
import type { Doc, EventBus, InlineProjections, Logger, MessageTimeline, ReadStore } from '@veil/ports';
import { describeMessageTimelineContract, type MessageTimelineUnderTest } from '@veil/ports/contract';
import { createSqliteReadStore, logCompanionModule } from '@veil/readstore-sqlite';
import { uniquePrefix } from '@veil/test-env';
import { openTimeline, timelineCollection } from './timeline-store.ts';
import { openMessageReadModels, timelineProjection } from './timeline.projection.ts';

/**
 * The timeline port's contract on both of its adapters, each kept by the service's own timeline
 * projection as the app runs it: the read model on SQLite (and on MongoDB with MONGODB_URL),
 * following the log; and the embedded log's indexes, the projection inside its commits (erasing
 * what deletions and expiries erase).
 */
const silent: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => silent };

const withTimeline = async (
  bus: EventBus,
  readStore: ReadStore,
  options: { fromLog?: MessageTimeline; inline?: InlineProjections },
): Promise<{ timeline: MessageTimeline; projection: RunningProjection }> => {
  const { messages, documents } = await openTimeline(readStore, options.fromLog);
  const projection = await startProjection({
    bus: byContext(bus),
    readStore,
    log: silent,
    definition: timelineProjection(await openMessageReadModels(readStore), byContext(bus), documents),
    ...(options.inline && { inline: options.inline }),
  });
  return { timeline: messages, projection };
};

const underTest = async (
  dataDir: string,
  bus: EventBus,
  readStore: ReadStore,
  options: { fromLog?: MessageTimeline; inline?: InlineProjections; dropStore?: () => Promise<void> },
): Promise<MessageTimelineUnderTest> => {
  const { timeline, projection } = await withTimeline(bus, readStore, options);
  return {
    timeline,
    async record(event) {
      const { position } = await bus.append('message', event);
      // Inline, the timeline has it once the append is acknowledged: the wait is already over.
      await projection.waitFor('message', position);
      return position;
    },
    async teardown() {
      await projection.stop();
      await options.dropStore?.();
      await readStore.close();
      await bus.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

const tempDir = () => mkdtemp(path.join(tmpdir(), 'veil-timeline-'));

describeMessageTimelineContract('the read model on SQLite, following the log', async () => {
  const dataDir = await tempDir();
  const bus = await createEmbeddedBus({ dataDir, log: silent });
  return underTest(dataDir, bus, createSqliteReadStore({ file: ':memory:' }), {});
});

/** The embedded app's stores: the log and the read models in one file, the timeline from the log. */
const embeddedStores = async (dataDir: string) => {
  const bus = await createEmbeddedBus({
    dataDir,
    log: silent,
    companion: logCompanionModule,
    messageTimeline: true,
  });
  const readStore = createSqliteReadStore({ file: bus.shared!.file, sharedLog: bus.shared! });
  return { bus, readStore, inline: bus.shared!.inlineProjections(readStore.commitEncoder!) };
};

describeMessageTimelineContract("the embedded log's indexes, the projection inside its commits", async () => {
  const dataDir = await tempDir();
  const { bus, readStore, inline } = await embeddedStores(dataDir);
  return underTest(dataDir, bus, readStore, { fromLog: bus.messageTimeline!, inline });
});

const mongoUrl = process.env.MONGODB_URL;
if (!mongoUrl) console.log('message timeline on MongoDB: skipped: MONGODB_URL not set');
describe.skipIf(!mongoUrl)('MongoDB (skipped: MONGODB_URL not set)', () => {
  describeMessageTimelineContract('the read model on MongoDB, following the log', async () => {
    const { createMongoReadStore } = await import('@veil/readstore-mongo');
    const dataDir = await tempDir();
    const bus = await createEmbeddedBus({ dataDir, log: silent });
    const readStore = await createMongoReadStore({ url: mongoUrl!, database: uniquePrefix('veiltest') });
    return underTest(dataDir, bus, readStore, {
      // The run's database goes with it: every collection the projection opened, dropped.
      dropStore: async () => {
        for (const name of [timelineCollection, 'message_memberships', 'message_receipt_settings'])
          await readStore.drop(name);
        for (const name of ['message_blocks', 'message_attachments', '_checkpoints', '_parked'])
          await readStore.drop(name);
      },
    });
  });
});

describe('the timeline in the embedded log', () => {
  it('drops the read model an earlier version kept, and builds nothing in its place', async () => {
    const dataDir = await tempDir();
    const before = await embeddedStores(dataDir);
    // What an earlier version left in the file: the timeline's documents and their indexes.
    const left = await before.readStore.collection<Doc & Record<string, unknown>>(timelineCollection, [
      { fields: { chat: 1, seq: 1 } },
    ]);
    await left.put({ _id: 'old', chat: 'c', seq: 1, content: 'ciphertext an earlier version kept' });
    await before.readStore.close();
    await before.bus.close();

    const after = await embeddedStores(dataDir);
    const { projection } = await withTimeline(after.bus, after.readStore, {
      fromLog: after.bus.messageTimeline!,
      inline: after.inline,
    });
    await projection.stop();
    await after.readStore.close();
    await after.bus.close();
    const db = new DatabaseSync(path.join(dataDir, 'event-log.sqlite'));
    try {
      const tables = (
        db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as {
          name: string;
        }[]
      ).map((row) => row.name);
      expect(tables.filter((name) => name.startsWith(timelineCollection))).toEqual([]);
      expect(tables).toContain('message_memberships');
    } finally {
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
