import * as c from '@veil/crypto';
import { io } from 'socket.io-client';
import { linkAsNewBrowser, linkFromOldBrowser } from '../../web/src/features/device-link/link-session.ts';
import {
  accountKeys,
  exportAccountKeyBundle,
  keepAccountKey,
  keepAccountKeyBundle,
} from '../../web/src/features/keys/account-keys.ts';
import { socketOptions, type VeilSocket } from '../../web/src/lib/realtime.ts';

/**
 * The page side of the link benchmark (bundled for Chromium by link-bench.ts): the web client's
 * own link session and key storage, on a socket of its own. One page plays the new browser, the
 * other the logged-in one, which confirms the digits at once. Times are epoch milliseconds
 * (`performance.timeOrigin + performance.now()`), comparable between the two pages.
 */
export interface LinkPage {
  connect(token: string): Promise<void>;
  /** Logged-in browser: an account key (stored as the app stores it) and a history sealed for it. */
  prepareKeys(account: string, messages: number): Promise<c.EncryptedEnvelope[]>;
  /** New browser: opens a link; resolves its code. */
  openLink(account: string): Promise<string>;
  /** New browser: resolves when the keys are stored, and when `history` has been read with them. */
  linked(history: c.EncryptedEnvelope[]): Promise<{ storedAt: number; historyReadAt: number }>;
  /** Logged-in browser: joins with the code, confirms, resolves when the other browser has stored the keys. */
  join(account: string, code: string): Promise<{ startedAt: number }>;
}

const now = () => performance.timeOrigin + performance.now();
let socket: VeilSocket | null = null;
let done: Promise<number> | null = null;
let storedAs = '';

const page: LinkPage = {
  async connect(token) {
    socket = io({ ...socketOptions, transports: [...socketOptions.transports], auth: { token } });
    socket.connect();
    await new Promise<void>((resolve, reject) => {
      socket!.once('connect', resolve);
      socket!.once('connect_error', reject);
    });
  },
  async prepareKeys(account, messages) {
    const pair = await c.generateUserKeyPair();
    const publicKey = await c.exportPublicKeySpkiBase64(pair.publicKey);
    await keepAccountKey(account, pair.privateKey, publicKey);
    return Promise.all(
      Array.from({ length: messages }, (_, i) =>
        c.encryptMessage(`message ${i} of the page`, { me: pair.publicKey }),
      ),
    );
  },
  openLink(account) {
    storedAs = account;
    return new Promise((resolve, reject) => {
      done = new Promise((stored, failed) =>
        linkAsNewBrowser(socket!, {
          keep: async (bundle) => {
            await keepAccountKeyBundle(account, bundle);
          },
          onState: (state) => {
            if (state.step === 'waiting') resolve(state.code);
            else if (state.step === 'done') stored(now());
            else if (state.step === 'refused' || state.step === 'expired') {
              const error = new Error(`link ${state.step}`);
              failed(error);
              reject(error);
            }
          },
        }),
      );
    });
  },
  async linked(history) {
    const storedAt = await done!;
    const [key] = await accountKeys(storedAs);
    await Promise.all(history.map((message) => c.decryptMessage(message, 'me', key!)));
    return { storedAt, historyReadAt: now() };
  },
  async join(account, code) {
    const linkId = await c.linkIdOfCode(code);
    if (!linkId) throw new Error('not a link code');
    const startedAt = now();
    await new Promise<void>((resolve, reject) => {
      const session = linkFromOldBrowser(socket!, linkId, {
        exportBundle: async () => (await exportAccountKeyBundle(account, null))!,
        onState: (state) => {
          if (state.step === 'confirm') session.confirm();
          else if (state.step === 'done') resolve();
          else if (state.step === 'refused' || state.step === 'expired')
            reject(new Error(`link ${state.step}`));
        },
      });
    });
    return { startedAt };
  },
};

(window as unknown as { linkBench: LinkPage }).linkBench = page;
