import type { Context } from '@veil/contracts';
import type { RunningProjection } from '@veil/kernel';

/** Past this many remembered writers, the ones already applied are forgotten in one sweep. */
const sweepAbove = 10_000;

export type OwnWrites = ReturnType<typeof ownWrites>;

/**
 * Read-your-writes per caller. A command answers from the event it appended, without waiting
 * for the read models; the same caller's next read waits until every projection given has
 * applied that event, and nobody else's read does. A projection that stalls (its log unreachable
 * for a while) then holds back only the callers who wrote during the stall, not every reader.
 */
export const ownWrites = (projections: readonly RunningProjection[], context: Context) => {
  const newest = new Map<string, number>();
  const appliedEverywhere = () => Math.min(...projections.map((projection) => projection.position(context)));
  return {
    wrote(caller: string, position: number) {
      if ((newest.get(caller) ?? 0) >= position) return;
      newest.set(caller, position);
      if (newest.size > sweepAbove) {
        const applied = appliedEverywhere();
        for (const [who, at] of newest) if (at <= applied) newest.delete(who);
      }
    },
    async applied(caller: string) {
      const position = newest.get(caller);
      if (position === undefined) return;
      await Promise.all(projections.map((projection) => projection.waitFor(context, position)));
      if (newest.get(caller) === position) newest.delete(caller);
    },
  };
};
