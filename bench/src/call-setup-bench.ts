import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBenchChromium } from './browser-bundle.ts';
import { cpuSecondsOf } from './process-cpu.ts';
import { percentile, round } from './stats.ts';
import { startVeilProcess } from './veil-process.ts';

/**
 * Setting up a one-to-one call, end to end on loopback: the embedded Veil serving the built web
 * client, two people each in a Chromium context of their own with fake devices (docs/calls.md).
 * Each call is timed from the caller's click on "Voice call" to media flowing on both sides
 * (`getStats()` bytes received above zero on each side's connection); the callee's browser
 * accepts as soon as it rings, so the time is the set-up's (sealing, signing, relaying, checking,
 * ICE, DTLS) and not a person's. Also the server's CPU time per set-up: the process's CPU over
 * the set-ups (click to media on both sides, hang-ups left out), divided by their count; in
 * embedded mode that process is the realtime gateway with every other service, so it bounds the
 * gateway's share from above. Not a timed test: numbers for docs/benchmarks/calls.md.
 * Run alone: `node bench/src/call-setup-bench.ts [calls] [port]`.
 */
export interface CallSetupBenchResult {
  calls: number;
  setupMsP50: number;
  setupMsP95: number;
  /** From the click to the callee's browser ringing (median). */
  ringMsP50: number;
  /** Server CPU per set-up, ms. */
  cpuMsPerSetup: number;
  setupMsRuns: number[];
}

const webDist = path.join(import.meta.dirname, '../../web/dist');
const password = 'bench password 1';
const waitLong = { timeout: 60_000 };

/** Makes the page keep its peer connections, so the bench can read their statistics. */
const keepPeerConnections = (page: Page) =>
  page.addInitScript(() => {
    const Original = window.RTCPeerConnection;
    const made: RTCPeerConnection[] = [];
    (window as unknown as { benchPeerConnections: RTCPeerConnection[] }).benchPeerConnections = made;
    window.RTCPeerConnection = class extends Original {
      constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
        super(...args);
        made.push(this);
      }
    } as typeof RTCPeerConnection;
  });

/** Resolves the wall-clock time (ms) at which the page's newest connection first received media. */
const mediaFlowingAt = (page: Page, connectionsBefore: number): Promise<number> =>
  page.evaluate(async (before) => {
    const made = (window as unknown as { benchPeerConnections: RTCPeerConnection[] }).benchPeerConnections;
    for (;;) {
      const pc = made.length > before ? made.at(-1) : undefined;
      let received = 0;
      if (pc)
        (await pc.getStats()).forEach((report: { type: string; bytesReceived?: number }) => {
          if (report.type === 'inbound-rtp') received += report.bytesReceived ?? 0;
        });
      if (received > 0) return Date.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }, connectionsBefore);

const connectionsMade = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { benchPeerConnections: RTCPeerConnection[] }).benchPeerConnections.length,
  );

/** A person signed up through the web client's own pages (its keys made in this browser). */
const signedUp = async (browser: Browser, url: string, username: string): Promise<Page> => {
  const page = await (await browser.newContext({ baseURL: url })).newPage();
  page.on('pageerror', (error) => console.error(`[call bench page] ${error.message}`));
  await keepPeerConnections(page);
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.getByRole('heading', { name: 'Save your recovery key' }).waitFor(waitLong);
  await page.getByRole('button', { name: 'Skip for now' }).click();
  await page.waitForURL('**/all-chats', waitLong);
  return page;
};

/** The caller says hi to the callee from the Users page, and the callee opens that chat. */
const chatBetween = async (caller: Page, callee: Page, callerName: string, calleeName: string) => {
  await caller.goto('/users');
  await caller.getByLabel('Search users').fill(calleeName);
  await caller.getByRole('button', { name: `${calleeName}: Say Hi` }).click();
  await caller.waitForURL(/\/all-chats\?chat=/, waitLong);
  await caller.getByRole('button', { name: `Send “Hi ${calleeName}”` }).click();
  await callee
    .getByTestId('chat-item')
    .filter({ has: callee.getByTestId('chat-item-title').filter({ hasText: callerName }) })
    .click(waitLong);
};

export const runCallSetupBench = async (calls: number, port = 18_700): Promise<CallSetupBenchResult> => {
  if (!existsSync(path.join(webDist, 'index.html')))
    throw new Error('Build the web client first: npm run build');
  const veil = await startVeilProcess(port);
  const browser = await launchBenchChromium({ fakeMedia: true });
  try {
    const suffix = Date.now().toString(36);
    const [callerName, calleeName] = [`caller${suffix}`, `callee${suffix}`];
    const caller = await signedUp(browser, veil.url, callerName);
    const callee = await signedUp(browser, veil.url, calleeName);
    await chatBetween(caller, callee, callerName, calleeName);
    const callButton = caller.getByRole('button', { name: `Voice call with ${calleeName}` });

    const oneCall = async () => {
      const before = [await connectionsMade(caller), await connectionsMade(callee)] as const;
      const cpuBefore = await cpuSecondsOf(veil.pid);
      const clickedAt = Date.now();
      await callButton.click();
      const flowing = Promise.all([mediaFlowingAt(caller, before[0]), mediaFlowingAt(callee, before[1])]);
      const accept = callee.getByTestId('incoming-call').getByRole('button', { name: 'Accept' });
      await accept.waitFor(waitLong);
      const rangAt = Date.now();
      await accept.click();
      const flowingAt = Math.max(...(await flowing));
      const cpuSeconds = (await cpuSecondsOf(veil.pid)) - cpuBefore;
      await caller.getByRole('button', { name: 'Hang up' }).click();
      for (const page of [caller, callee]) await page.getByRole('button', { name: 'Close' }).click(waitLong);
      return { setupMs: flowingAt - clickedAt, ringMs: rangAt - clickedAt, cpuSeconds };
    };

    await oneCall(); // warm-up: the first TURN request, the first keys fetched and checked
    const runs = [];
    for (let i = 0; i < calls; i++) runs.push(await oneCall());
    const setups = runs.map((r) => r.setupMs).sort((a, b) => a - b);
    const rings = runs.map((r) => r.ringMs).sort((a, b) => a - b);
    return {
      calls,
      setupMsP50: percentile(setups, 50),
      setupMsP95: percentile(setups, 95),
      ringMsP50: percentile(rings, 50),
      cpuMsPerSetup: round((runs.reduce((sum, r) => sum + r.cpuSeconds, 0) * 1000) / calls, 1),
      setupMsRuns: runs.map((r) => r.setupMs),
    };
  } finally {
    await browser.close();
    await veil.stop();
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runCallSetupBench(Number(process.argv[2] ?? 20), Number(process.argv[3] ?? 18_700)).then(
    (result) => {
      console.log('Call set-up in Chromium on loopback (ms; CPU of the server per set-up)');
      console.table(result);
      process.exit(0);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
