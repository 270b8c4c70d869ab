import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Socket } from 'socket.io-client';
import type { DeliveryOptions, DeliveryTarget } from './delivery.ts';
import { connectSender } from './sender-socket.ts';
import { spawnServer, type ServerProcess } from './server-process.ts';

/**
 * The baselines: a Socket.IO relay on the same stack (`relay-server.ts`), in a process of its own
 * as Veil is, carrying messages of the same size as Veil's. The bare relay is the ceiling for
 * this stack on this machine; the durable one also puts every message on disk before relaying it
 * (group commit), as Veil does. Veil's figures are reported as ratios to both.
 */
export type RelayKind = 'bare' | 'durable';

export interface RelayProcess extends ServerProcess {
  url: string;
  /** The durable relay's log (one JSON line per message); removed when it stops. */
  logFile?: string;
}

export const startRelay = async (port: number, kind: RelayKind = 'bare'): Promise<RelayProcess> => {
  const url = `http://127.0.0.1:${port}`;
  const dir = kind === 'durable' ? await mkdtemp(path.join(tmpdir(), 'veil-relay-')) : undefined;
  const logFile = dir && path.join(dir, 'messages.log');
  const removeDir = async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  };
  const relay = await spawnServer(
    'bench/src/relay-server.ts',
    [url],
    { PORT: String(port), ...(logFile && { RELAY_LOG_FILE: logFile }) },
    'SIGTERM',
  ).catch(async (error: unknown) => {
    await removeDir();
    throw error;
  });
  return {
    url,
    pid: relay.pid,
    ...(logFile && { logFile }),
    async stop() {
      await relay.stop();
      await removeDir();
    },
  };
};

export const relayTarget = async (url: string, options: DeliveryOptions): Promise<DeliveryTarget> => {
  const conversations: { sender: number; recipients: number[] }[] = [];
  const pairUsers = Math.floor(options.users / 2 / 2) * 2;
  for (let i = 0; i + 1 < pairUsers; i += 2) conversations.push({ sender: i, recipients: [i + 1] });
  for (let start = pairUsers; start + options.groupSize <= options.users; start += options.groupSize) {
    conversations.push({
      sender: start,
      recipients: Array.from({ length: options.groupSize - 1 }, (_, k) => start + k + 1),
    });
  }
  const senders = new Map<number, Socket>();
  let next = 0;
  for (const { sender } of conversations) senders.set(sender, await connectSender(url, { user: sender }));
  const bodies = conversations.map((c) => payloadSizedLikeVeils(c.recipients.length + 1));
  return {
    conversations: conversations.length,
    recipients: (c) => conversations[c]!.recipients,
    receiverSpec: (user) => ({ url, auth: { user }, event: 'recv', idPath: ['id'] }),
    close: () => senders.forEach((socket) => socket.close()),
    send: (c) =>
      new Promise((resolve) => {
        const id = `r${next++}`;
        senders
          .get(conversations[c]!.sender)!
          .emit('send', { id, to: conversations[c]!.recipients, body: bodies[c] }, () => resolve(id));
      }),
  };
};

const base64Of = (bytes: number) => randomBytes(bytes).toString('base64');

/**
 * Random bytes in the shape and size of Veil's send payload for a chat of `members`: the AES-GCM
 * ciphertext of a short text, a 12-byte iv, and one 2048-bit RSA-OAEP wrapped key (256 bytes)
 * per member under a ULID-length id. The same bytes on the wire make the same load.
 */
const payloadSizedLikeVeils = (members: number) => ({
  encryptedMessage: base64Of(40),
  iv: base64Of(12),
  encryptedKeys: Object.fromEntries(
    Array.from({ length: members }, () => [randomBytes(13).toString('hex').slice(0, 26), base64Of(256)]),
  ),
});
