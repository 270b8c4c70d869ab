import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { insertEventSql, openLogDatabase } from '@veil/bus-embedded/log-database';
import { round, summarize } from './stats.ts';

/**
 * SQLite's journal modes for the event log's file, on the log's own schema: commits of `batch`
 * one-to-one-message-sized rows with `synchronous = FULL`, one after another on one thread, for
 * a few seconds. What one durable group commit costs in each mode, and so which one to use.
 *
 * `node bench/src/sqlite-journal-bench.ts [seconds] [batch]`
 */
const event = JSON.stringify({ type: 'MessageSent', data: { content: 'x'.repeat(1600) } });

const measure = async (journal: 'WAL' | 'DELETE', seconds: number, batch: number) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'veil-journal-'));
  const file = path.join(dir, 'event-log.sqlite');
  openLogDatabase(file).close();
  const db = new DatabaseSync(file);
  db.prepare(`PRAGMA journal_mode = ${journal}`).get();
  db.exec('PRAGMA synchronous = FULL');
  const insert = db.prepare(insertEventSql);
  const commits: number[] = [];
  let position = 0;
  const until = performance.now() + seconds * 1000;
  while (performance.now() < until) {
    const started = performance.now();
    db.exec('BEGIN IMMEDIATE');
    for (let i = 0; i < batch; i++) {
      position++;
      insert.run('message', position, `msg-${position}`, `E${position}`, event);
    }
    db.exec('COMMIT');
    commits.push(performance.now() - started);
  }
  db.close();
  await rm(dir, { recursive: true, force: true });
  const { p50, p99 } = summarize(commits);
  return {
    journal,
    commitsPerSecond: Math.round(commits.length / seconds),
    eventsPerSecond: Math.round((commits.length * batch) / seconds),
    commitP50Ms: round(p50, 2),
    commitP99Ms: round(p99, 2),
  };
};

if (import.meta.main) {
  const [seconds = '5', batch = '10'] = process.argv.slice(2);
  const rows = [];
  for (const journal of ['WAL', 'DELETE'] as const)
    rows.push(await measure(journal, Number(seconds), Number(batch)));
  console.table(rows);
}
