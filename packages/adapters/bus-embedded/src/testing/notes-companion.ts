import type { DatabaseSync } from 'node:sqlite';

/**
 * A store that keeps notes in the log's file, written by the log's writer thread inside its
 * commits (what the read store does in embedded mode), for tests of commits that carry more than
 * events: pass `notesCompanion` as the bus's `companion`, and give the commits the notes, `{ _id, text }[]`.
 */
export const notesCompanion = new URL('./notes-companion.ts', import.meta.url).href;

export const openCommitCompanion = (db: DatabaseSync) => {
  db.exec('CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, text TEXT NOT NULL)');
  const insert = db.prepare('INSERT OR REPLACE INTO notes (id, text) VALUES (?, ?)');
  return {
    apply(payload: unknown) {
      for (const note of payload as { _id: string; text: string }[]) insert.run(note._id, note.text);
    },
    handle: () => null,
  };
};
