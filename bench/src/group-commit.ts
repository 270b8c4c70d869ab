import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/**
 * The durable relay's log: an append-only file whose writes are durable when they return, with
 * group commit. One write is on its way to the disk at a time; every line that arrives meanwhile
 * waits and goes in the next write, so a busy relay pays one sync per batch, not per message.
 *
 * The file is opened with O_DSYNC, the primitive Veil's embedded event log uses: each write
 * returns only once its bytes are on disk, as a write followed by fdatasync would, in one trip
 * to the thread pool instead of two. Where the flag does not exist, an fdatasync follows.
 */
const syncOnWrite = constants.O_DSYNC !== undefined;

export const openGroupCommitLog = async (file: string) => {
  const handle = await open(
    file,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_DSYNC ?? 0),
  );
  let waiting: { line: string; durable: () => void }[] = [];
  let writing = false;

  const writeBatches = async () => {
    writing = true;
    while (waiting.length) {
      const batch = waiting;
      waiting = [];
      await handle.write(batch.map((entry) => entry.line).join(''));
      if (!syncOnWrite) await handle.datasync();
      for (const entry of batch) entry.durable();
    }
    writing = false;
  };

  return {
    /** Appends one line (it must end in a newline); `durable` runs once it is on disk. */
    append(line: string, durable: () => void) {
      waiting.push({ line, durable });
      // A relay that cannot persist must not keep relaying: a failed write ends the process.
      if (!writing)
        writeBatches().catch((error: unknown) => {
          console.error(error);
          process.exit(1);
        });
    },
    close: () => handle.close(),
  };
};
