import {
  exportPublicKeySpkiBase64,
  generateSigningKeyPair,
  generateUserKeyPair,
  importPublicKeySpkiBase64,
  sealGroupPayload,
  signKeyLogEntry,
  signMessage,
  encodeMessageContent,
  frankText,
} from '@veil/crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBenchChromium } from './browser-bundle.ts';
import { measureFirstLoad, type FirstLoadResult } from './first-load.ts';
import { median, round } from './stats.ts';
import { startVeilProcess } from './veil-process.ts';

/**
 * The chat list of a user with many chats, in Chromium (Debian's, headless, driven by
 * playwright-core) against the embedded Veil serving the built web client (`npm run build`).
 * First a newcomer's first visit (first-load.ts), then, signed in, a reload of /all-chats, timed from the page's start until every chat is listed with its unread
 * badge, and until the previews in view are decrypted (an RSA-OAEP unwrap and an AES-GCM
 * decryption each; rows out of view are decrypted as they scroll in). Target: under 300 ms.
 * Run alone: `node bench/src/chat-list-bench.ts [chats] [repeats]`.
 */
export interface ChatListBenchResult {
  chats: number;
  /** A first visit in a fresh profile, before anyone signs in. */
  firstLoad: FirstLoadResult;
  /** From the page's start until every chat is in the list, with its badge (median ms). */
  listedMs: number;
  /** ...until the previews in view are decrypted too. */
  previewsMs: number;
  /** The same two, from the moment the page asks for the chat list (the app loaded and signed in). */
  listedAfterRequestMs: number;
  previewsAfterRequestMs: number;
  /** How long the server took to answer both calls (the rest is the browser's). */
  answeredAfterRequestMs: number;
  previewsDecrypted: number;
}

const webDist = path.join(import.meta.dirname, '../../web/dist');

const json = async (res: Response) => {
  const body = (await res.json()) as { success: boolean; data: unknown; message: string };
  if (!body.success) throw new Error(`${res.url}: ${body.message}`);
  return body.data as never;
};

/** The reader registers in the page, so its private key is where the app looks: IndexedDB. */
const registerInPage = (page: Page, username: string, password: string) =>
  page.evaluate(
    async ({ username, password }) => {
      const { privateKey, publicKey } = await crypto.subtle.generateKey(
        { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
        false,
        ['encrypt', 'decrypt'],
      );
      const spki = btoa(
        String.fromCharCode(...new Uint8Array(await crypto.subtle.exportKey('spki', publicKey))),
      );
      const form = new FormData();
      form.append('username', username);
      form.append('password', password);
      form.append('publicKey', spki);
      const registered = await (await fetch('/api/v1/user/register', { method: 'POST', body: form })).json();
      const userId = registered.data.user._id as string;
      // The web app's key store (lib/key-store.ts): idb-keyval's default database and store.
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open('keyval-store');
        open.onupgradeneeded = () => open.result.createObjectStore('keyval');
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      await new Promise((resolve, reject) => {
        const tx = db.transaction('keyval', 'readwrite');
        tx.objectStore('keyval').put(
          [{ privateKey, publicKey: spki, storedAt: Date.now() }],
          `private-keys:${userId}`,
        );
        tx.oncomplete = resolve;
        tx.onerror = () => reject(tx.error);
      });
      const login = await (
        await fetch('/api/v1/user/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password }),
        })
      ).json();
      const { accesstoken, refreshtoken, loggedUser } = login.data.user;
      localStorage.setItem('accesstoken', accesstoken);
      localStorage.setItem('refreshtoken', refreshtoken);
      localStorage.setItem('data', JSON.stringify(loggedUser));
      return { userId, publicKey: spki };
    },
    { username, password },
  );

export const runChatListBench = async (
  chats: number,
  repeats: number,
  port = 18_600,
): Promise<ChatListBenchResult> => {
  if (!existsSync(path.join(webDist, 'index.html')))
    throw new Error('Build the web client first: npm run build');
  const veil = await startVeilProcess(port);
  const browser = await launchBenchChromium();
  try {
    const firstLoad = await measureFirstLoad(browser, veil.url, Math.max(3, repeats));
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, baseURL: veil.url });
    await page.goto('/');
    const suffix = Date.now().toString(36);
    const reader = await registerInPage(page, `reader${suffix}`, 'bench password 1');

    // One writer starts `chats` groups with the reader and writes once in each, signed as a
    // browser signs, so the reader's previews pass their checks as they do in use.
    const [writerKeys, writerSigning] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
    const writerPublicKey = await exportPublicKeySpkiBase64(writerKeys.publicKey);
    const writerSigningKey = await exportPublicKeySpkiBase64(writerSigning.publicKey);
    const writerForm = new FormData();
    writerForm.append('username', `writer${suffix}`);
    writerForm.append('password', 'bench password 1');
    writerForm.append('publicKey', writerPublicKey);
    writerForm.append('signingKey', writerSigningKey);
    const registered = await signKeyLogEntry(
      null,
      { encryptionKey: writerPublicKey, signingKey: writerSigningKey, reason: 'registered' },
      writerSigning.privateKey,
    );
    writerForm.append('keyLogEntry', JSON.stringify(registered));
    await json(await fetch(`${veil.url}/api/v1/user/register`, { method: 'POST', body: writerForm }));
    const login: { user: { accesstoken: string; loggedUser: { _id: string } } } = await json(
      await fetch(`${veil.url}/api/v1/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `writer${suffix}`, password: 'bench password 1' }),
      }),
    );
    const auth = { authorization: `Bearer ${login.user.accesstoken}`, 'content-type': 'application/json' };
    const keys = {
      [reader.userId]: await importPublicKeySpkiBase64(reader.publicKey),
      [login.user.loggedUser._id]: writerKeys.publicKey,
    };
    // Signed as the browser signs (version 3): the key-log heads the writer is served for both, and
    // the franking tag of the text, whose key is sealed inside.
    const headOf = async (userId: string): Promise<string> => {
      const log: { entries: { hash: string }[] } = await json(
        await fetch(`${veil.url}/api/v1/users/${userId}/keyLog`, { headers: auth }),
      );
      return log.entries.at(-1)!.hash;
    };
    const keyLogHeads = {
      [reader.userId]: await headOf(reader.userId),
      [login.user.loggedUser._id]: await headOf(login.user.loggedUser._id),
    };
    for (let n = 0; n < chats; n++) {
      const chat: { _id: string } = await json(
        await fetch(`${veil.url}/api/v1/chat/creategroupchat`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ groupName: `Group ${n}`, participants: [reader.userId] }),
        }),
      );
      const text = `Message number ${n} in this group`;
      const franking = await frankText(text);
      const { payload, keyCommitment } = await sealGroupPayload(
        encodeMessageContent({ text, attachments: [], franking: franking.key }),
        keys,
      );
      const clientMessageId = `bench-message-${n}`;
      const signedAt = new Date().toISOString();
      // The first message in each chat: counter 1, no previous one.
      const v2 = { keyCommitment, keyLogHeads, counter: 1, prev: null, franking: franking.tag };
      const signature = await signMessage(writerSigning.privateKey, {
        ciphertext: payload.encryptedMessage,
        iv: payload.iv,
        chat: chat._id,
        senderId: login.user.loggedUser._id,
        clientMessageId,
        replyTo: null,
        createdAt: signedAt,
        encryptedKeys: payload.encryptedKeys,
        v2,
      });
      await json(
        await fetch(`${veil.url}/api/v1/message/sendGroupMessage/${chat._id}`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({
            ...payload,
            clientMessageId,
            signature: { value: signature, signedAt, version: 3, ...v2 },
          }),
        }),
      );
    }

    const rounds: {
      listedMs: number;
      previewsMs: number;
      previewsDecrypted: number;
      requestedAt: number;
      answeredAt: number;
    }[] = [];
    for (let pass = 0; pass <= repeats; pass++) {
      await page.goto('/all-chats');
      const { listedMs, requestedAt, answeredAt } = await page.evaluate(async (expected) => {
        const listed = () => document.querySelectorAll('[data-testid="unread-badge"]').length >= expected;
        while (!listed()) await new Promise((resolve) => requestAnimationFrame(resolve));
        const at = performance.now();
        const calls = performance
          .getEntriesByType('resource')
          .filter((entry) =>
            /chat\/getallchats|message\/unread/.test(entry.name),
          ) as PerformanceResourceTiming[];
        const requestedAt = Math.min(...calls.map((entry) => entry.startTime));
        const answeredAt = Math.max(...calls.map((entry) => entry.responseEnd));
        return { listedMs: at, requestedAt, answeredAt };
      }, chats);
      const previews = await page.evaluate(async () => {
        const inView = () =>
          [...document.querySelectorAll('[data-testid="chat-item"]')].filter((row) => {
            const box = row.getBoundingClientRect();
            return box.bottom > 0 && box.top < innerHeight;
          });
        const read = () =>
          inView().every((row) => row.querySelector('[data-testid="chat-preview"]')?.textContent !== '…');
        while (!read()) await new Promise((resolve) => requestAnimationFrame(resolve));
        return { at: performance.now(), decrypted: inView().length };
      });
      // The first load warms Chromium's caches (the bundle, WebCrypto's first use): not counted.
      if (pass > 0)
        rounds.push({
          listedMs,
          previewsMs: previews.at,
          previewsDecrypted: previews.decrypted,
          requestedAt,
          answeredAt,
        });
    }
    return {
      chats,
      firstLoad,
      listedMs: round(median(rounds.map((r) => r.listedMs)), 1),
      previewsMs: round(median(rounds.map((r) => r.previewsMs)), 1),
      listedAfterRequestMs: round(median(rounds.map((r) => r.listedMs - r.requestedAt)), 1),
      previewsAfterRequestMs: round(median(rounds.map((r) => r.previewsMs - r.requestedAt)), 1),
      answeredAfterRequestMs: round(median(rounds.map((r) => r.answeredAt - r.requestedAt)), 1),
      previewsDecrypted: rounds[0]!.previewsDecrypted,
    };
  } finally {
    await browser.close();
    await veil.stop();
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  runChatListBench(Number(process.argv[2] ?? 500), Number(process.argv[3] ?? 7)).then(
    (result) => {
      const { firstLoad, ...chatList } = result;
      console.log('First visit in a fresh profile (ms to the Welcome page drawn; its scripts, gzipped)');
      console.table(firstLoad);
      console.log('Chat list in Chromium (median ms from the page start)');
      console.table(chatList);
    },
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
