import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumLaunchOptions, freePort } from '@veil/test-env';
import { messageWithText, openChat, sayHi, sendMessage, signUpAndLogIn, uniqueName } from './flows.ts';

/**
 * `npm run dev` as a developer uses it: the Vite dev server (hot reload) in front of the embedded
 * Veil, forwarding /api and /socket.io (websockets) to it. Two people sign up and chat through
 * the Vite port only, so every API call and every live delivery crosses the proxy.
 */
const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('npm run dev', { timeout: 120_000 }, () => {
  let dev: ChildProcess;
  let output = '';
  let dataDir: string;
  let webUrl: string;
  let browser: Browser;

  const viteAnswers = async () => {
    try {
      return (await fetch(webUrl)).ok;
    } catch {
      return false; // not listening yet
    }
  };

  beforeAll(async () => {
    const [apiPort, webPort] = [await freePort(), await freePort()];
    webUrl = `http://127.0.0.1:${webPort}`;
    dataDir = mkdtempSync(path.join(tmpdir(), 'veil-dev-'));
    // Its own process group: npm, concurrently, Vite and node --watch with Veil, stopped together.
    dev = spawn('npm', ['run', 'dev'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: String(apiPort), DEV_WEB_PORT: String(webPort), DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    dev.stdout!.on('data', (chunk) => (output += chunk));
    dev.stderr!.on('data', (chunk) => (output += chunk));
    for (
      const deadline = Date.now() + 60_000;
      !(output.includes('Veil is running') && (await viteAnswers()));
    ) {
      if (Date.now() > deadline || dev.exitCode !== null)
        throw new Error(`npm run dev did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    browser = await chromium.launch(chromiumLaunchOptions());
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    if (dev?.exitCode === null) {
      const closed = new Promise((resolve) => dev.once('close', resolve));
      process.kill(-dev.pid!, 'SIGTERM');
      await closed;
    }
    rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  it('serves the client with hot reload and forwards the API and the sockets to the server', async () => {
    // The page comes from Vite (its hot-reload client is in it), not from a built bundle.
    expect(await (await fetch(webUrl)).text()).toContain('/@vite/client');
    const users = await fetch(`${webUrl}/api/v1/user/getallusers`);
    expect(users.status).toBe(200);
    expect(await users.json()).toMatchObject({ success: true });

    const alice = {
      page: await (await browser.newContext({ baseURL: webUrl })).newPage(),
      name: uniqueName('dal'),
    };
    const bob = {
      page: await (await browser.newContext({ baseURL: webUrl })).newPage(),
      name: uniqueName('dbo'),
    };
    for (const person of [alice, bob]) person.page.setDefaultTimeout(20_000);
    await signUpAndLogIn(alice.page, alice.name);
    await signUpAndLogIn(bob.page, bob.name);
    await sayHi(alice.page, bob.name);
    await openChat(bob.page, alice.name);
    // Bob's open chat receives this over his socket, through the dev server's websocket proxy.
    await sendMessage(alice.page, 'through the dev server');
    await messageWithText(bob.page, 'through the dev server').waitFor();
  });
});
