import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { messageTimelineIndexes } from '@veil/bus-embedded/message-timeline';
import { startVeil } from '@veil/app';
import { writeHistory } from './stored-history.ts';
import { median, round, summarize } from './stats.ts';

/**
 * The message timeline as the embedded Veil keeps it: no table of its own, the event log's
 * message rows found through partial indexes over them and each message folded from its stream
 * (docs/decisions.md, "The message timeline"), on a stored history of N messages in ten chats:
 * - a page of 50 messages, the newest and one from the middle of a chat, through the message
 *   service's `history`;
 * - the bytes the indexes take in the data file (SQLite's `dbstat`), and the time to build them
 *   (a data dir of an earlier version builds them at its first start);
 * - what they add to each append: 5,000 message events appended in transactions of 100, four
 *   times each, as group commits take them, with and without them (`synchronous = OFF` in both,
 *   so the disk's flush is not what is timed).
 * The table it replaced measured 0.11 ms a page (p50) and 1,622 MB at 1,000,000 messages
 * (docs/benchmarks/storage-and-replay.md). Not a timed test: figures for that page.
 * Run alone: `node bench/src/timeline-index-bench.ts [messages]`.
 */

const pageSize = 50;
const samplesPerPage = 200;
const appended = 5_000;
const perCommit = 100;

const bytesOf = (db: DatabaseSync, names: (name: string) => boolean) =>
  (
    db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[]
  )
    .filter((row) => names(row.name))
    .reduce((total, row) => total + Number(row.bytes), 0);

const isTimelineIndex = (name: string) => messageTimelineIndexes.some((index) => index.name === name);
const dropIndexes = (db: DatabaseSync) => {
  for (const { name } of messageTimelineIndexes) db.exec(`DROP INDEX ${name}`);
};
const createIndexes = (db: DatabaseSync) => {
  for (const { sql } of messageTimelineIndexes) db.exec(sql);
};

/** Milliseconds per appended event, in group commits of `perCommit`. */
const appendMs = (db: DatabaseSync, from: number, chatId: string) => {
  const insert = db.prepare(
    'INSERT INTO events (context, position, stream, event_id, event) VALUES (?, ?, ?, ?, ?)',
  );
  const content = Buffer.alloc(96, 7).toString('base64');
  const started = performance.now();
  for (let i = 0; i < appended; i++) {
    const position = from + i;
    const messageId = `B${String(position).padStart(25, '0')}`;
    const event = {
      type: 'MessageSent',
      eventId: `bench-${position}`,
      streamId: `msg-${messageId}`,
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
      data: {
        messageId,
        chatId,
        senderId: 'bench',
        content,
        iv: 'AAAAAAAAAAAAAAAA',
        encryptedKeys: {},
        replyTo: null,
        clientMessageId: `key-${position}`,
      },
    };
    if (i % perCommit === 0) db.exec('BEGIN IMMEDIATE');
    insert.run('message', position, event.streamId, event.eventId, JSON.stringify(event));
    if (i % perCommit === perCommit - 1) db.exec('COMMIT');
  }
  return (performance.now() - started) / appended;
};

export const runTimelineIndexBench = async (messageEvents: number) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-timeline-'));
  try {
    const eventsDir = path.join(dataDir, 'events');
    await mkdir(eventsDir, { recursive: true });
    const { chats, messageCount } = await writeHistory(eventsDir, messageEvents);
    const chat = chats[0]!;
    const middle = Math.floor(messageCount / 2);

    const veil = await startVeil({ dataDir, services: ['user', 'auth', 'chat', 'message'] });
    const history = async (before?: number) => {
      const runs: number[] = [];
      for (let i = 0; i < samplesPerPage; i++) {
        const started = performance.now();
        const page = (await veil.ports.rpc.call('message', 'history', {
          userId: chat.members[0],
          chatId: chat.id,
          limit: pageSize,
          ...(before !== undefined && { before }),
        })) as { messages: unknown[] };
        runs.push(performance.now() - started);
        if (page.messages.length !== pageSize)
          throw new Error(`a page of ${page.messages.length} messages from the log`);
      }
      const { p50, p99 } = summarize(runs);
      return { p50: round(p50, 3), p99: round(p99, 3) };
    };
    const newest = await history();
    const fromMiddle = await history(middle);
    await veil.stop();

    const db = new DatabaseSync(path.join(eventsDir, 'event-log.sqlite'));
    try {
      const indexBytes = bytesOf(db, isTimelineIndex);
      const tableBytes = bytesOf(db, (name) => name.startsWith('message_timeline'));
      if (tableBytes) throw new Error('the embedded Veil kept a timeline table');
      dropIndexes(db);
      const built = performance.now();
      createIndexes(db);
      const indexBuildSeconds = (performance.now() - built) / 1000;
      const head = Number(
        (
          db.prepare('SELECT max(position) AS p FROM events WHERE context = ?').get('message') as {
            p: number;
          }
        ).p,
      );

      db.exec('PRAGMA synchronous = OFF');
      // Alternated, so neither side is favoured by the file's size or the machine's moment.
      let next = head + 1;
      const appendUs = { withIndexes: [] as number[], withoutIndexes: [] as number[] };
      for (let round = 0; round < 4; round++) {
        appendUs.withIndexes.push(appendMs(db, next, chat.id) * 1000);
        next += appended;
        dropIndexes(db);
        appendUs.withoutIndexes.push(appendMs(db, next, chat.id) * 1000);
        next += appended;
        createIndexes(db);
      }
      return {
        messages: messageCount,
        pageMs: { newest, middle: fromMiddle },
        indexBytes,
        indexMB: round(indexBytes / 1e6, 1),
        indexBuildSeconds: round(indexBuildSeconds, 2),
        appendUsWithIndexes: round(median(appendUs.withIndexes), 1),
        appendUsWithoutIndexes: round(median(appendUs.withoutIndexes), 1),
      };
    } finally {
      db.close();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runTimelineIndexBench(Number(process.argv[2] ?? 1_000_000)).then(
    (result) => {
      console.log('The message timeline over the event log (embedded mode)');
      console.log(JSON.stringify(result, null, 2));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
