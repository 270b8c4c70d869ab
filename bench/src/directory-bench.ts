import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startVeil } from '@veil/app';
import { meta, writeLog } from './log-file.ts';
import { round, summarize } from './stats.ts';

/** Names in no particular order, as registrations arrive: user<n>-<a scrambled number>. */
const usernameOf = (i: number, userCount: number) =>
  `user${(i * 7919) % userCount}-${(i * 2_654_435_761) % 1_000_003}`;

/**
 * The user directory at size: a log of N registered users, the user service started on it, then
 * the time it takes to answer a search (a letter most names contain, a prefix, a miss: each asks
 * for the first 200 matches in name order; median and p99 of `repeats` searches) and the
 * list of every user (median). Both run on the event loop that, in embedded mode, also delivers
 * every message.
 */
export const runDirectoryBench = async (userCount: number, repeats: number) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-directory-'));
  const eventsDir = path.join(dataDir, 'events');
  await mkdir(eventsDir, { recursive: true });
  const users = function* () {
    for (let i = 0; i < userCount; i++) {
      const userId = `U${String(i).padStart(25, '0')}`;
      const username = usernameOf(i, userCount);
      yield {
        ...meta('UserRegistered', `user-${userId}`, i),
        data: { userId, username, publicKey: 'AAAA', pictureKey: null },
      };
    }
  };
  await writeLog(path.join(eventsDir, 'user.jsonl'), users());
  const veil = await startVeil({ dataDir, services: ['user'] });
  try {
    const time = async (
      operation: 'search' | 'list',
      input: Record<string, unknown>,
      expected: number,
      times = repeats,
    ) => {
      const samples: number[] = [];
      for (let i = 0; i < times; i++) {
        const started = performance.now();
        const { users: found } = (await veil.ports.rpc.call('user', operation, input)) as {
          users: unknown[];
        };
        samples.push(performance.now() - started);
        if (found.length !== expected)
          throw new Error(`${operation} found ${found.length}, expected ${expected}`);
      }
      const { p50, p99 } = summarize(samples);
      return { p50: round(p50), p99: round(p99) };
    };
    const common = await time('search', { query: '1' }, Math.min(200, countMatching(userCount, '1')));
    const prefix = await time(
      'search',
      { query: 'user12' },
      Math.min(200, countMatching(userCount, 'user12')),
    );
    const miss = await time('search', { query: 'nobody' }, 0);
    const list = await time('list', {}, userCount, Math.min(repeats, 11));
    return {
      users: userCount,
      searchCommonMs: common.p50,
      searchCommonP99Ms: common.p99,
      searchPrefixMs: prefix.p50,
      searchPrefixP99Ms: prefix.p99,
      searchMissMs: miss.p50,
      searchMissP99Ms: miss.p99,
      listAllMs: list.p50,
    };
  } finally {
    await veil.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
};

/** How many of the generated names contain `needle` (to check each answer's size). */
const countMatching = (userCount: number, needle: string) => {
  let count = 0;
  for (let i = 0; i < userCount; i++) if (usernameOf(i, userCount).includes(needle)) count++;
  return count;
};
