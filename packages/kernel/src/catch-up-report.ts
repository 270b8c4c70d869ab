import type { Logger } from '@veil/ports';

/**
 * What a projection logs about catching up with the log at start: how many events it is behind
 * (building from an empty read model, or from its checkpoint), progress every few seconds, and
 * one line when it has caught up, whose `applied` counts the events applied since start (0 after
 * a restart that found the read model at the log's head).
 */
export const createCatchUpReport = (deps: {
  log: Logger;
  projection: string;
  /** Checkpoints at start, per context. */
  from: ReadonlyMap<string, number>;
  /** The log's heads at start, per context. */
  to: ReadonlyMap<string, number>;
  intervalMs?: number;
}) => {
  const { log, projection } = deps;
  const from = Object.fromEntries(deps.from);
  const to = new Map(deps.to);
  const behind = [...to].reduce((sum, [context, head]) => sum + head - (from[context] ?? 0), 0);
  const started = performance.now();
  let applied = 0;
  let timer: ReturnType<typeof setInterval> | undefined;

  const finish = () => {
    clearInterval(timer);
    timer = undefined;
    const seconds = Number(((performance.now() - started) / 1000).toFixed(2));
    log.info({ projection, applied, seconds }, 'read model caught up');
  };

  if (behind === 0) finish();
  else {
    const empty = Object.values(from).every((position) => position === 0);
    log.info(
      { projection, events: behind, from },
      empty
        ? 'building the read model from the event log'
        : 'read model behind the event log; applying the events after its checkpoint',
    );
    timer = setInterval(
      () => log.info({ projection, applied, of: behind }, 'read model catching up'),
      deps.intervalMs ?? 5_000,
    );
    timer.unref();
  }

  return {
    applied() {
      applied++;
    },
    /** Called with the stored positions after each write. */
    stored(positions: ReadonlyMap<string, number>) {
      if (timer && [...to].every(([context, head]) => (positions.get(context) ?? 0) >= head)) finish();
    },
    stop() {
      clearInterval(timer);
    },
  };
};
