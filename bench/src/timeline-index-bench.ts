import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { foldMessage, messageViewOf, type MessageEvent, type MessageState } from '@veil/contracts';
import { startVeil } from '@veil/app';
import { writeHistory } from './stored-history.ts';
import { median, round, summarize } from './stats.ts';

/**
 * The message timeline as a table of its own (`message_timeline`, what Veil keeps) against an
 * index over the event log (docs/decisions.md, "The message timeline"), on the same stored
 * history of N messages in ten chats:
 * - a page of 50 messages, the newest and one from the middle of a chat: through the message
 *   service's `history` (the table), and through a partial expression index on the log's
 *   MessageSent events by chat, each message then folded from its stream's events with the
 *   same `foldMessage` the timeline applies (the index);
 * - the bytes each takes in the data file (SQLite's `dbstat`), and the index's build time;
 * - what the index adds to each append: 5,000 message events appended in transactions of 100, four times each,
 *   as group commits take them, with and without it (`synchronous = OFF` in both, so the disk's
 *   flush is not what is timed).
 * Not a timed test: figures for docs/benchmarks/storage-and-replay.md.
 * Run alone: `node bench/src/timeline-index-bench.ts [messages]`.
 */

const pageSize = 50;
const samplesPerPage = 200;
const appended = 5_000;
const perCommit = 100;

const indexSql = `CREATE INDEX events_sent_by_chat ON events (json_extract(event, '$.data.chatId'), position)
  WHERE context = 'message' AND json_extract(event, '$.type') = 'MessageSent'`;

const pageSql = `SELECT position, stream FROM events
  WHERE context = 'message' AND json_extract(event, '$.type') = 'MessageSent'
    AND json_extract(event, '$.data.chatId') = ? AND position < ?
  ORDER BY position DESC LIMIT ${pageSize}`;

const streamSql = `SELECT position, event FROM events WHERE context = 'message' AND stream = ? ORDER BY position`;

const bytesOf = (db: DatabaseSync, names: (name: string) => boolean) =>
  (
    db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[]
  )
    .filter((row) => names(row.name))
    .reduce((total, row) => total + Number(row.bytes), 0);

const timed = (samples: number, work: () => unknown) => {
  const runs: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    work();
    runs.push(performance.now() - started);
  }
  const { p50, p99 } = summarize(runs);
  return { p50: round(p50, 3), p99: round(p99, 3) };
};

/** A page read through the index: the MessageSent rows, then each message folded from its stream. */
const pageFromLog = (db: DatabaseSync, chatId: string, before: number) => {
  const page = db.prepare(pageSql);
  const stream = db.prepare(streamSql);
  return () => {
    const rows = page.all(chatId, before) as { position: number; stream: string }[];
    const views = rows.map((row) => {
      let state: MessageState | null = null;
      for (const { position, event } of stream.all(row.stream) as { position: number; event: string }[])
        if (event) state = foldMessage(state, JSON.parse(event) as MessageEvent, position);
      return state && messageViewOf(state, null);
    });
    if (views.length !== pageSize) throw new Error(`a page of ${views.length} messages from the log`);
    return views;
  };
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

    // The table: through the message service, as the replay bench reads it.
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
          throw new Error(`a page of ${page.messages.length} messages from the table`);
      }
      const { p50, p99 } = summarize(runs);
      return { p50: round(p50, 3), p99: round(p99, 3) };
    };
    const newestFromTable = (await veil.ports.rpc.call('message', 'history', {
      userId: chat.members[0],
      chatId: chat.id,
      limit: pageSize,
    })) as { messages: { _id: string }[] };
    const tableNewest = await history();
    const tableMiddle = await history(middle);
    await veil.stop();

    const db = new DatabaseSync(path.join(eventsDir, 'event-log.sqlite'));
    try {
      const isTimeline = (name: string) => name.startsWith('message_timeline');
      const tableBytes = bytesOf(db, isTimeline);
      const built = performance.now();
      db.exec(indexSql);
      const indexBuildSeconds = (performance.now() - built) / 1000;
      const indexBytes = bytesOf(db, (name) => name === 'events_sent_by_chat');
      const head = Number(
        (
          db.prepare('SELECT max(position) AS p FROM events WHERE context = ?').get('message') as {
            p: number;
          }
        ).p,
      );
      // Both ways read the same page, or the comparison means nothing.
      const fromLog = pageFromLog(db, chat.id, head + 1)().map((view) => view?._id);
      const fromTable = newestFromTable.messages.map((message) => message._id);
      if (fromLog.toSorted().join() !== fromTable.toSorted().join())
        throw new Error('the index over the log read another page than the table');
      const logNewest = timed(samplesPerPage, pageFromLog(db, chat.id, head + 1));
      const logMiddle = timed(samplesPerPage, pageFromLog(db, chat.id, middle));

      db.exec('PRAGMA synchronous = OFF');
      // Alternated, so neither side is favoured by the table's size or the machine's moment.
      let next = head + 1;
      const appendUs = { withIndex: [] as number[], withoutIndex: [] as number[] };
      for (let round = 0; round < 4; round++) {
        appendUs.withIndex.push(appendMs(db, next, chat.id) * 1000);
        next += appended;
        db.exec('DROP INDEX events_sent_by_chat');
        appendUs.withoutIndex.push(appendMs(db, next, chat.id) * 1000);
        next += appended;
        db.exec(indexSql);
      }
      return {
        messages: messageCount,
        tablePageMs: { newest: tableNewest, middle: tableMiddle },
        logIndexPageMs: { newest: logNewest, middle: logMiddle },
        tableMB: round(tableBytes / 1e6, 1),
        logIndexMB: round(indexBytes / 1e6, 1),
        logIndexBuildSeconds: round(indexBuildSeconds, 2),
        appendUsWithIndex: round(median(appendUs.withIndex), 1),
        appendUsWithoutIndex: round(median(appendUs.withoutIndex), 1),
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
      console.log('The message timeline: a table of its own against an index over the log');
      console.log(JSON.stringify(result, null, 2));
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
