import type { KeyLogEntry } from '@veil/crypto';
import { keyLogOf, type CheckedKeyLog } from './key-logs.ts';

/**
 * Split views (docs/crypto.md, "Split views"): a version 2 signature names, for the sender and
 * every member it sealed for, the hash of the newest key-log entry the sender saw. Each reader
 * compares every hash with its own checked view of that member's log, its own included: a hash
 * that is no entry of the log this reader is served means the server showed the two of them
 * different logs for that member. The same check runs on every message of every sender, so the
 * sender sees it too when the others' messages name what they saw.
 */
export interface SplitView {
  /** Whose log the two see differently. */
  member: string;
  /** The hash the sender named. */
  named: string;
  /** The newest hash this reader sees for that member, or null: no checked log here. */
  seen: string | null;
}

/** The heads that are no entry of the logs given (a member without a log here is not judged). */
export const headsNotIn = (
  heads: Readonly<Record<string, string>>,
  logs: ReadonlyMap<string, readonly KeyLogEntry[]>,
): SplitView[] =>
  Object.entries(heads).flatMap(([member, named]) => {
    const entries = logs.get(member);
    if (!entries || entries.some((entry) => entry.hash === named)) return [];
    return [{ member, named, seen: entries.at(-1)?.hash ?? null }];
  });

const entriesOf = (log: CheckedKeyLog): readonly KeyLogEntry[] | undefined =>
  log.ok ? log.entries : undefined;

/**
 * The split views a signature's heads show to `accountId`: each named log as this reader sees it,
 * and, for a hash not in it, the log fetched once more (the member may have changed keys since
 * this page fetched it). A log that cannot be checked here is left out: its own warning says so.
 */
export const splitViewsOf = async (
  accountId: string,
  heads: Readonly<Record<string, string>>,
): Promise<SplitView[]> => {
  const logsOf = async (ids: readonly string[], newerThan?: string) =>
    new Map(
      await Promise.all(
        ids.map(async (id) => [id, entriesOf(await keyLogOf(accountId, id, newerThan))] as const),
      ).then((pairs) => pairs.filter((pair): pair is readonly [string, readonly KeyLogEntry[]] => !!pair[1])),
    );
  const first = headsNotIn(heads, await logsOf(Object.keys(heads)));
  if (!first.length) return [];
  const refetched = await logsOf(
    first.map((view) => view.member),
    new Date(Date.now() + 1).toISOString(),
  );
  return headsNotIn(Object.fromEntries(first.map((view) => [view.member, view.named])), refetched);
};
