import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { builtHash, sourceHash } from '../scripts/source-hash.ts';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startVeil, type RunningVeil, type StartVeilOptions } from '@veil/app';
import { chromiumLaunchOptions, startHostileProxy, type HostileProxy } from '@veil/test-env';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startLoggedVeil, type LogEntry } from '../../apps/veil/test/support/logged-veil.ts';

/**
 * Browser tests against the real Veil: the embedded app (API, realtime, the built web client)
 * on loopback in a temp dir, driven by Debian's Chromium. Each test file gets one server and
 * one browser; each simulated person gets a fresh browser context (own storage and IndexedDB).
 */
const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const distDir = path.join(webDir, 'dist');
const artifactsDir = path.join(webDir, 'e2e', 'artifacts');

export const desktop = { width: 1280, height: 800 };
export const phone = { width: 360, height: 740 };
/** Today's common phone (the layout's bottom bar and one-row chat header are checked at it). */
export const phone390 = { width: 390, height: 844 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Builds web/dist when it is missing or was built from other sources (the fingerprint every
 * build stores, as `npm start` checks it: web/scripts/source-hash.ts). Test files run in
 * parallel, so a lock directory (mkdir is atomic) makes one of them build while the others wait.
 */
export const ensureWebBuilt = async (): Promise<string> => {
  const sources = sourceHash();
  const isFresh = () => builtHash() === sources;
  const lock = path.join(tmpdir(), 'veil-web-build.lock');
  for (let waited = 0; !isFresh(); waited += 250) {
    try {
      mkdirSync(lock);
    } catch {
      if (waited > 180_000) throw new Error(`Timed out waiting for another build (remove ${lock} if stale)`);
      await sleep(250);
      continue;
    }
    try {
      if (!isFresh())
        execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
          cwd: webDir,
          stdio: 'inherit',
          env: { ...process.env, NODE_ENV: 'production' }, // vitest sets NODE_ENV=test, which would build React's dev bundle
        });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  return distDir;
};

export interface VeilWeb {
  url: string;
  /** Where the server keeps its event log, read models and blobs. */
  dataDir: string;
  /** The server's log lines, when started with `ownProcess` (else empty). */
  logs: LogEntry[];
  /** A fresh browser context (a different person, or the same person on another device). */
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  /**
   * A page in a browser of its own whose camera shows the Y4M video `cameraFeed` (see
   * `camera-feed.ts`), camera permission granted; closed with the test's other pages.
   */
  newPageWithCamera(cameraFeed: string, viewport?: { width: number; height: number }): Promise<Page>;
  /** For afterEach: screenshots of every open page if the test failed, then closes them. */
  finishTest(test: { name: string; result?: { state?: string } }): Promise<void>;
  /** Stops the server (the browsers stay), as a crash or a deploy would. */
  stopServer(): Promise<void>;
  /** Starts it again on the same address and data. */
  startServer(): Promise<void>;
  stop(): Promise<void>;
  /**
   * The server's read models, for tests that play a malicious server rewriting what it stored
   * (a Veil in this process only: not with `ownProcess`).
   */
  readStore: RunningVeil['ports']['readStore'];
  /**
   * The hostile proxy the browsers talk to instead of Veil (started with `hostile`), which tests
   * tell what to change, as a malicious server operator would.
   */
  proxy: HostileProxy;
}

/** The server a file's browser tests run against. */
interface ServedVeil {
  url: string;
  dataDir: string;
  entries: LogEntry[];
  readStore: RunningVeil['ports']['readStore'] | undefined;
  /** Stops the server, keeping its data. */
  halt(): Promise<void>;
  /** Starts it again on the same address and data. */
  resume(): Promise<void>;
  /** Stops it and removes its data. */
  stop(): Promise<void>;
}

/** Veil in this process, in a temp dir of its own. */
const inProcessVeil = async (
  webDist: string,
  env?: Record<string, string>,
  clock?: StartVeilOptions['clock'],
): Promise<ServedVeil> => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'veil-web-e2e-'));
  const startOn = (port: number) =>
    startVeil({ dataDir, port, webDist, ...(env ? { env } : {}), ...(clock ? { clock } : {}) });
  let veil: RunningVeil | null = await startOn(0);
  const url = veil.url;
  return {
    url,
    dataDir,
    entries: [],
    get readStore() {
      return veil?.ports.readStore;
    },
    async halt() {
      await veil?.stop();
      veil = null;
    },
    async resume() {
      veil ??= await startOn(Number(new URL(url).port));
    },
    async stop() {
      await veil?.stop();
      veil = null;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

/** Veil as `npm start` runs it, its JSON log lines kept; it cannot be stopped and started again. */
const ownProcessVeil = async (webDist: string, env?: Record<string, string>): Promise<ServedVeil> => {
  const veil = await startLoggedVeil({ WEB_DIST: webDist, ...env });
  const notHere = () => Promise.reject(new Error('stopping and starting again needs a Veil in this process'));
  return { ...veil, readStore: undefined, halt: notHere, resume: notHere };
};

/**
 * `env` reaches Veil's configuration, e.g. a short ACCESS_TOKEN_TTL_SECONDS. `ownProcess` runs
 * it as `npm start` does, with its JSON log lines (debug level) kept in `logs`. `clock` is the
 * services' clock (a Veil in this process only), for tests that let a timer run out without
 * waiting.
 */
export const startVeilWeb = async (
  options: {
    env?: Record<string, string>;
    ownProcess?: boolean;
    clock?: StartVeilOptions['clock'];
    /** Browsers reach Veil through a hostile proxy (`proxy`) rather than directly. */
    hostile?: boolean;
  } = {},
): Promise<VeilWeb> => {
  const webDist = await ensureWebBuilt();
  let browser: Browser | undefined;
  let proxy: HostileProxy | undefined;
  const veil = options.ownProcess
    ? await ownProcessVeil(webDist, options.env)
    : await inProcessVeil(webDist, options.env, options.clock);
  try {
    if (options.hostile) proxy = await startHostileProxy({ target: veil.url });
    browser = await chromium.launch(chromiumLaunchOptions());
  } catch (error) {
    await proxy?.close();
    await veil.stop();
    throw error;
  }
  const url = proxy?.url ?? veil.url;
  const launched = browser;
  const contexts = new Set<BrowserContext>();
  const cameraBrowsers = new Set<Browser>();

  const openPage = async (on: Browser, viewport: { width: number; height: number }) => {
    const context = await on.newContext({ viewport, baseURL: url });
    contexts.add(context);
    const page = await context.newPage();
    // Fail at the step that hangs, well before the test's own timeout.
    page.setDefaultTimeout(15_000);
    page.on('pageerror', (error) => console.error(`[browser] ${error.message}`));
    return page;
  };

  return {
    url,
    dataDir: veil.dataDir,
    logs: veil.entries,
    get readStore() {
      if (!veil.readStore) throw new Error('readStore is there for a running Veil in this process only');
      return veil.readStore;
    },
    newPage: (viewport = desktop) => openPage(launched, viewport),
    async newPageWithCamera(cameraFeed, viewport = desktop) {
      const defaults = chromiumLaunchOptions();
      const withCamera = await chromium.launch({
        ...defaults,
        args: [
          ...defaults.args,
          '--use-fake-ui-for-media-stream',
          '--use-fake-device-for-media-stream',
          `--use-file-for-fake-video-capture=${cameraFeed}`,
        ],
      });
      cameraBrowsers.add(withCamera);
      return openPage(withCamera, viewport);
    },
    async finishTest(test) {
      // Each test starts with a proxy that lies about nothing.
      proxy?.behave();
      if (test.result?.state === 'fail') {
        mkdirSync(artifactsDir, { recursive: true });
        const slug = test.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
        let index = 0;
        for (const context of contexts) {
          for (const page of context.pages()) {
            index += 1;
            await page
              .screenshot({ path: path.join(artifactsDir, `${slug}-${index}.png`), fullPage: true })
              .catch(() => undefined);
          }
        }
      }
      await Promise.all([...contexts].map((context) => context.close().catch(() => undefined)));
      contexts.clear();
      await Promise.all([...cameraBrowsers].map((camera) => camera.close().catch(() => undefined)));
      cameraBrowsers.clear();
    },
    get proxy() {
      if (!proxy) throw new Error('the proxy is there for a Veil started with `hostile`');
      return proxy;
    },
    stopServer: () => veil.halt(),
    startServer: () => veil.resume(),
    async stop() {
      await launched.close().catch(() => undefined);
      await proxy?.close();
      await veil.stop();
    },
  };
};

/**
 * One Veil and browser for the test file: started before its tests, screenshots of a failed
 * test's pages after it, stopped after the file. Returns the running Veil (read it inside tests).
 */
export const useVeilWeb = (options: Parameters<typeof startVeilWeb>[0] = {}): (() => VeilWeb) => {
  let veil: VeilWeb | undefined;
  beforeAll(async () => {
    veil = await startVeilWeb(options);
  }, 240_000);
  afterEach(({ task }) => veil?.finishTest(task));
  afterAll(() => veil?.stop());
  return () => veil!;
};
