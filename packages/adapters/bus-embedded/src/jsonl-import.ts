import { open, readdir, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Logger } from '@veil/ports';
import { EventLogFileError, insertEventSql } from './log-database.ts';
import { readJsonlLog } from './jsonl-log.ts';

/**
 * Upgrades a data dir whose log is in the earlier JSON-lines files: each `<context>.jsonl` is
 * copied into the log's database, then renamed `<context>.jsonl.imported` (kept, never read
 * again). The copy commits every `chunk` events and skips the positions already stored, so a
 * crash half way resumes where the last commit ended: no event is lost or stored twice. The
 * file is renamed only after its last commit is durable, so a crash before the rename imports
 * nothing again and renames it at the next start.
 */
const chunk = 10_000;
const erasedId = (position: number) => `erased-${position}`;
const progressEveryMs = 5_000;

const importFile = async (db: DatabaseSync, context: string, file: string, log: Logger) => {
  const stored = db
    .prepare(
      'SELECT position, event_id AS eventId FROM events WHERE context = ? ORDER BY position DESC LIMIT 1',
    )
    .get(context) as { position: number; eventId: string } | undefined;
  const resumeAfter = stored?.position ?? 0;
  const bytes = (await stat(file)).size;
  log.info({ file, context, bytes, resumeAfter }, 'importing the event log from its earlier JSON-lines file');
  const started = performance.now();
  let lastProgress = started;
  const insert = db.prepare(insertEventSql);
  let last = 0;
  let inTransaction = 0;
  try {
    for await (const { p, e, bytesRead } of readJsonlLog(file)) {
      last = p;
      if (p <= resumeAfter) {
        if (p === resumeAfter && (e?.eventId ?? erasedId(p)) !== stored!.eventId)
          throw new EventLogFileError(
            `${file} does not match the event log it was being imported into (position ${p} holds another ` +
              'event there). Move one of them away: the JSON-lines file is imported into an empty log.',
          );
        continue;
      }
      if (!inTransaction) db.exec('BEGIN IMMEDIATE');
      // An erased record keeps its position; its stream and id are gone with it.
      if (e) insert.run(context, p, e.streamId, e.eventId, JSON.stringify(e));
      else insert.run(context, p, '', erasedId(p), '');
      if (++inTransaction === chunk) {
        db.exec('COMMIT');
        inTransaction = 0;
        const now = performance.now();
        if (now - lastProgress >= progressEveryMs) {
          lastProgress = now;
          log.info(
            { file, context, events: p, percent: Math.floor((bytesRead / bytes) * 100) },
            'importing the event log',
          );
        }
      }
    }
    if (inTransaction) db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
  if (last < resumeAfter)
    throw new EventLogFileError(
      `${file} holds ${last} events but the event log already holds ${resumeAfter} of context ${context}. ` +
        'Move one of them away: the JSON-lines file is imported into an empty log.',
    );
  log.info(
    { file, context, events: last, seconds: Math.round(performance.now() - started) / 1000 },
    'imported the event log',
  );
};

/** Makes a rename in `dir` durable. */
const syncDir = async (dir: string) => {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
};

export const importJsonlLogs = async (db: DatabaseSync, dir: string, log: Logger) => {
  const files = (await readdir(dir)).filter((name) => /^[a-z0-9-]+\.jsonl$/.test(name)).sort();
  for (const name of files) {
    const file = path.join(dir, name);
    await importFile(db, name.slice(0, -'.jsonl'.length), file, log);
    await rename(file, `${file}.imported`);
    await syncDir(dir);
  }
};
