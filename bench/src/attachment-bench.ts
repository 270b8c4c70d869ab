import { open, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { buildIndividualPayload, exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { freePort } from '@veil/test-env';
import type { AttachmentPage } from './attachment-page.ts';
import { bundleForBrowser } from '@veil/test-env';
import { launchBenchChromium } from './browser-bundle.ts';
import { round } from './stats.ts';
import { startVeilProcess } from './veil-process.ts';

/**
 * Encrypting and uploading a large file in Chromium, as the web client does it, and the memory
 * it takes: the page's JS heap (CDP `Runtime.getHeapUsage`) and the renderer process's resident
 * memory (`VmRSS` of the renderer processes Chromium lists), sampled every 50 ms, peak against
 * the page at rest. The file is picked from disk, as a user would pick it.
 * Run alone: `node bench/src/attachment-bench.ts [megabytes]`.
 */
export interface AttachmentBenchResult {
  megabytes: number;
  uploadSeconds: number;
  mbPerSecond: number;
  jsHeapAtRestMb: number;
  jsHeapPeakMb: number;
  rendererRssAtRestMb: number;
  rendererRssPeakMb: number;
}

const mb = (bytes: number) => round(bytes / (1024 * 1024), 1);

/** Resident memory of the largest of these processes. */
const largestRss = async (pids: number[]): Promise<number> => {
  let largest = 0;
  for (const pid of pids) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
    largest = Math.max(largest, Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024);
  }
  return largest;
};

/** A registered account and a one-to-one chat with another, over the API. */
const accountWithChat = async (url: string) => {
  const run = Date.now().toString(36);
  const account = async (name: string) => {
    const keys = await generateUserKeyPair();
    const form = new FormData();
    form.append('username', `${name}${run}`);
    form.append('password', 'bench-password');
    form.append('publicKey', await exportPublicKeySpkiBase64(keys.publicKey));
    if ((await fetch(`${url}/api/v1/user/register`, { method: 'POST', body: form })).status !== 201)
      throw new Error('register failed');
    const login = await fetch(`${url}/api/v1/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: `${name}${run}`, password: 'bench-password' }),
    });
    const { user } = (
      (await login.json()) as { data: { user: { accesstoken: string; loggedUser: { _id: string } } } }
    ).data;
    return { keys, id: user.loggedUser._id, token: user.accesstoken };
  };
  const [a, b] = [await account('fa'), await account('fb')];
  const payload = await buildIndividualPayload('hi', {
    recipientId: b.id,
    recipientKey: b.keys.publicKey,
    senderId: a.id,
    senderKey: a.keys.publicKey,
  });
  const sent = await fetch(`${url}/api/v1/message/sendIndividualMessage/${b.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${a.token}` },
    body: JSON.stringify(payload),
  });
  const chatId = ((await sent.json()) as { data: { chat: { _id: string } } }).data.chat._id;
  return { token: a.token, chatId };
};

/** A file of random bytes on disk, written a megabyte at a time. */
const fileOnDisk = async (megabytes: number) => {
  const file = path.join(tmpdir(), `veil-bench-${randomBytes(4).toString('hex')}.bin`);
  const handle = await open(file, 'w');
  for (let i = 0; i < megabytes; i++) await handle.write(randomBytes(1024 * 1024));
  await handle.close();
  return file;
};

export const runAttachmentBench = async (megabytes: number): Promise<AttachmentBenchResult> => {
  const pageScript = await bundleForBrowser(path.join(import.meta.dirname, 'attachment-page.ts'));
  const veil = await startVeilProcess(await freePort(), {
    ATTACHMENT_MAX_BYTES: String(megabytes * 1024 * 1024),
  });
  const file = await fileOnDisk(megabytes);
  const browser = await launchBenchChromium().catch(async (error: unknown) => {
    await veil.stop();
    await rm(file, { force: true });
    throw error;
  });
  try {
    const { token, chatId } = await accountWithChat(veil.url);
    const page = await browser.newPage();
    // A page of Veil's own origin (the API is same-origin to it) that holds only the upload.
    await page.route(`${veil.url}/bench`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><input type="file" id="file"><script>${pageScript}</script>`,
      }),
    );
    await page.goto(`${veil.url}/bench`);
    await page.evaluate((t) => localStorage.setItem('accesstoken', t), token);
    await page.locator('#file').setInputFiles(file);
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize;
    // The renderer processes, as Chromium lists them (the page's is among them).
    const { processInfo } = (await (
      await browser.newBrowserCDPSession()
    ).send('SystemInfo.getProcessInfo')) as {
      processInfo: { id: number; type: string }[];
    };
    const renderers = processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
    const rendererRss = () => largestRss(renderers);
    const [jsHeapAtRest, rssAtRest] = [await heap(), await rendererRss()];
    let [jsHeapPeak, rssPeak] = [jsHeapAtRest, rssAtRest];
    let uploading = true;
    const sampling = (async () => {
      while (uploading) {
        jsHeapPeak = Math.max(jsHeapPeak, await heap());
        rssPeak = Math.max(rssPeak, await rendererRss());
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const { ms } = await page.evaluate(
      (id) => (window as unknown as AttachmentPage).uploadPicked(id),
      chatId,
    );
    uploading = false;
    await sampling;
    return {
      megabytes,
      uploadSeconds: round(ms / 1000, 2),
      mbPerSecond: round((megabytes * 1000) / ms, 1),
      jsHeapAtRestMb: mb(jsHeapAtRest),
      jsHeapPeakMb: mb(jsHeapPeak),
      rendererRssAtRestMb: mb(rssAtRest),
      rendererRssPeakMb: mb(rssPeak),
    };
  } finally {
    await browser.close();
    await veil.stop();
    await rm(file, { force: true });
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runAttachmentBench(Number(process.argv[2] ?? 100)).then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
