import type { Collection, Logger } from '@veil/ports';

export interface Checkpoint {
  _id: string;
  position: number;
}

export interface CheckpointSaver {
  /** Records that everything up to `position` is applied; the write happens in the background. */
  save(position: number): void;
  /** Resolves once the newest recorded position is written. */
  flush(): Promise<void>;
}

/**
 * A projection's checkpoint trails its applied position: one write at a time, each saving the
 * newest position applied so far, so a burst of events costs a few checkpoint writes instead of
 * one each (a database round trip each, with MongoDB) and never holds up the next event.
 * A checkpoint is never ahead of what is applied; after a crash the events since the last saved
 * one are applied again, which idempotent handlers allow.
 */
export const createCheckpointSaver = (deps: {
  checkpoints: Collection<Checkpoint>;
  checkpointId: string;
  saved: number;
  log: Logger;
}): CheckpointSaver => {
  const { checkpoints, checkpointId, log } = deps;
  let saved = deps.saved;
  let wanted = saved;
  let writing: Promise<void> | null = null;

  // Started only when there is something to write, so it always awaits before `finally` clears
  // `writing`; a save() arriving after the loop's last check starts a new write.
  const write = async () => {
    try {
      while (saved < wanted) {
        const position = wanted;
        await checkpoints.put({ _id: checkpointId, position });
        saved = position;
      }
    } catch (error) {
      log.warn({ err: error, checkpointId }, 'checkpoint not saved; the next event saves it');
    } finally {
      writing = null;
    }
  };
  const flush = (): Promise<void> => {
    if (!writing && saved < wanted) writing = write();
    return writing ?? Promise.resolve();
  };

  return {
    save(position) {
      wanted = Math.max(wanted, position);
      void flush();
    },
    async flush() {
      await writing;
      await flush();
    },
  };
};
