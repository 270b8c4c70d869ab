/**
 * What must still happen if the test run exits before its teardown (Ctrl-C, SIGTERM, a crash):
 * kill the servers it started and remove their directories. Exit handlers cannot wait, so every
 * step is synchronous; they run newest first (a server is killed before its directory goes).
 */
const pending = new Set<() => void>();

/** Registers a step; the returned function unregisters it once the normal path has done it. */
export const onAbruptExit = (step: () => void): (() => void) => {
  pending.add(step);
  return () => pending.delete(step);
};

export const runAbruptExitSteps = (): void => {
  for (const step of [...pending].reverse()) {
    pending.delete(step);
    try {
      step();
    } catch {
      // best effort: the process is exiting, and the next step may still succeed
    }
  }
};
