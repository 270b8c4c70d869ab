import { mkdtemp, rm } from 'node:fs/promises';
import { afterAll, beforeAll } from 'vitest';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startVeil, type RunningVeil, type StartVeilOptions } from '../../src/index.ts';
import { deleteRedisKeys, deleteStreams } from './cleanup.ts';
import { createApi, type Api } from './api-client.ts';

/** A whole Veil (embedded adapters unless `env` says otherwise) in a fresh temp dir. */
export interface TestVeil extends RunningVeil {
  dataDir: string;
  /** Stops and starts again on the same data dir (a restart). */
  restart(): Promise<TestVeil>;
  destroy(): Promise<void>;
}

export const startTestVeil = async (
  options: Partial<StartVeilOptions> = {},
  dataDir?: string,
): Promise<TestVeil> => {
  const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'veil-test-')));
  const veil = await startVeil({ ...options, dataDir: dir });
  return {
    ...veil,
    dataDir: dir,
    async restart() {
      await veil.stop();
      return startTestVeil(options, dir);
    },
    async destroy() {
      await veil.stop();
      await rm(dir, { recursive: true, force: true });
      const prefix = options.env?.VEIL_STREAM_PREFIX ?? 'veil';
      if (options.env?.NATS_URL) await deleteStreams(options.env.NATS_URL, prefix);
      if (options.env?.REDIS_URL) await deleteRedisKeys(options.env.REDIS_URL, prefix);
    },
  };
};

/**
 * One Veil for the test file: started before its tests, destroyed after them. The returned
 * object's `veil` and `api` are set once the file's tests run.
 */
export const useTestVeil = (options: Partial<StartVeilOptions> = {}) => {
  const running = {} as { veil: TestVeil; api: Api };
  beforeAll(async () => {
    running.veil = await startTestVeil(options);
    running.api = createApi(running.veil.url);
  });
  afterAll(() => running.veil?.destroy());
  return running;
};
