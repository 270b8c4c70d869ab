import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startVeil, veilNodeFlags } from '@veil/app';
import { freePort } from '@veil/test-env';
import { writeHistory } from './stored-history.ts';
import { spawnServer } from './server-process.ts';
import { residentBytesOf } from './process-cpu.ts';
import { round, summarize } from './stats.ts';

/**
 * Replay: write an event log of N events (users, chats, and mostly messages, as real traffic
 * is), then time a start of every service on it. The log is written in bulk in the JSON-lines
 * format of earlier versions, so the first start imports it (as the first start after an
 * upgrade does) and builds every read model: start returns once every projection has caught up
 * with the log. Then a restart on the same data, which
 * resumes the read models from their checkpoints. Then the time the message service takes to
 * answer a page of history (ten chats of N/10 messages each): the newest page, as opening a
 * chat asks, and one from the middle of the chat; median and p99 of 200 pages each.
 */

/** Heap in use, after a full collection when the bench runs with --expose-gc (`npm run bench` does). */
const heapUsedBytes = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed;
};

/**
 * `npm start` on the data dir, as an operator restarts it: the time from spawning the process
 * until it answers ready (polled every 200 ms), and its resident memory then.
 */
/**
 * The log's share and the read models' share of the embedded data file, which holds both: the
 * pages of the log's table and its indexes, and every other page (SQLite's `dbstat`).
 */
const bytesInDataFile = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const rows = db.prepare('SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name').all() as {
      name: string;
      bytes: number;
    }[];
    // The message timeline is the log's rows, found through indexes over them: counted apart.
    const isTimeline = (name: string) => name.startsWith('events_message_by_');
    const isLog = (name: string) =>
      !isTimeline(name) &&
      (name === 'events' || name === 'events_by_stream' || name.startsWith('sqlite_autoindex_events_'));
    const sum = (found: typeof rows) => found.reduce((total, row) => total + Number(row.bytes), 0);
    // Every message the timeline finds: a MessageSent in the log, under its index by chat.
    const messages = db
      .prepare(
        "SELECT count(*) AS n FROM events WHERE context = 'message' AND event != '' AND event ->> '$.type' = 'MessageSent'",
      )
      .get() as { n: number };
    return {
      messages: Number(messages.n),
      eventLogBytes: sum(rows.filter((row) => isLog(row.name))),
      timelineIndexBytes: sum(rows.filter((row) => isTimeline(row.name))),
      readModelBytes: sum(rows.filter((row) => !isLog(row.name) && !isTimeline(row.name))),
    };
  } finally {
    db.close();
  }
};

const processStart = async (dataDir: string) => {
  // A port free now, not one reserved at the start of a run that other servers may have taken since.
  const port = await freePort();
  const started = performance.now();
  const server = await spawnServer(
    'apps/veil/src/bin/veil.ts',
    [`http://127.0.0.1:${port}`],
    { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    'SIGTERM',
    veilNodeFlags,
  );
  const seconds = (performance.now() - started) / 1000;
  const rssBytes = await residentBytesOf(server.pid);
  await server.stop();
  return { seconds, rssBytes };
};

export const runReplayBench = async (messageEvents: number) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-replay-'));
  const eventsDir = path.join(dataDir, 'events');
  await mkdir(eventsDir, { recursive: true });
  const { chats, userEvents, chatEvents, messageCount } = await writeHistory(eventsDir, messageEvents);

  const start = () => startVeil({ dataDir, services: ['user', 'auth', 'chat', 'message'] });
  /** The first start builds the read models; nothing of that process is kept. */
  const timeFirstStart = async () => {
    const started = performance.now();
    const first = await start();
    const elapsed = (performance.now() - started) / 1000;
    await first.stop();
    return elapsed;
  };
  const seconds = await timeFirstStart();
  const heapBefore = heapUsedBytes();
  const restarted = performance.now();
  const veil = await start();
  const restartSeconds = (performance.now() - restarted) / 1000;
  // What the process holds beyond what it held before the start: the log and the read models
  // are on disk, so this should not grow with the log.
  const heapBytes = heapUsedBytes() - heapBefore;
  // This whole process after a full collection (it also built the read models and generated the log).
  const rssBytes = process.memoryUsage().rss;
  const {
    messages: stored,
    eventLogBytes,
    timelineIndexBytes,
    readModelBytes,
  } = bytesInDataFile(path.join(eventsDir, 'event-log.sqlite'));
  const [chat] = chats;
  // The first chat holds the messages at positions 1, 11, 21, ...
  const perChat = Math.ceil(messageCount / chats.length);
  const middle = Math.floor(messageCount / 2);
  /** Asks for a page `before` a position (none: the newest) and checks it holds `expected` messages. */
  const historyPageMs = async (expected: number, before?: number) => {
    const samples: number[] = [];
    for (let i = 0; i < 200; i++) {
      const asked = performance.now();
      const page = (await veil.ports.rpc.call('message', 'history', {
        userId: chat!.members[0],
        chatId: chat!.id,
        limit: 50,
        ...(before !== undefined && { before }),
      })) as { messages: unknown[] };
      samples.push(performance.now() - asked);
      if (page.messages.length !== expected) {
        throw new Error(`a history page of ${page.messages.length} messages, expected ${expected}`);
      }
    }
    const { p50, p99 } = summarize(samples);
    return { p50: round(p50, 3), p99: round(p99, 3) };
  };
  const newest = await historyPageMs(Math.min(50, perChat));
  const fromMiddle = await historyPageMs(Math.min(50, Math.ceil((middle - 1) / 10)), middle);
  await veil.stop();
  const ownProcess = await processStart(dataDir);
  await rm(dataDir, { recursive: true, force: true });
  return {
    events: userEvents + chatEvents + messageCount,
    rebuildSeconds: Number(seconds.toFixed(2)),
    restartSeconds: Number(restartSeconds.toFixed(2)),
    processStartSeconds: Number(ownProcess.seconds.toFixed(2)),
    processRssMB: Math.round(ownProcess.rssBytes / 1e6),
    messagesProjected: stored,
    heapMB: Math.round(heapBytes / 1e6),
    heapBytesPerEvent: Math.round(heapBytes / (userEvents + chatEvents + messageCount)),
    rssMB: Math.round(rssBytes / 1e6),
    eventLogMB: Math.round(eventLogBytes / 1e6),
    readModelsMB: Math.round(readModelBytes / 1e6),
    timelineIndexMB: Math.round(timelineIndexBytes / 1e6),
    messagesPerChat: perChat,
    newestHistoryPageMs: newest.p50,
    newestHistoryPageP99Ms: newest.p99,
    middleHistoryPageMs: fromMiddle.p50,
    middleHistoryPageP99Ms: fromMiddle.p99,
  };
};
