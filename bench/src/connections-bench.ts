import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { createAccessTokenSigner } from '@veil/tokens';
import { startVeilProcess } from './veil-process.ts';
import { residentBytesOf } from './process-cpu.ts';

/**
 * Connections: how many authenticated idle sockets one Veil process holds, and its resident
 * memory per socket. Each socket is a distinct user with a real access token, signed with the
 * key the process under test generated in its data dir (registering 10,000 users through the
 * slow password hash would measure the hash, not the sockets).
 */

const settle = () => new Promise((resolve) => setTimeout(resolve, 2_000));

export const runConnectionsBench = async (steps: number[], port: number) => {
  const veil = await startVeilProcess(port, { PRESENCE_TTL_SECONDS: '60' });
  const sockets: Socket[] = [];
  const results: { sockets: number; rssMiB: number; bytesPerSocket: number; failed: number }[] = [];
  try {
    const keys = JSON.parse(await readFile(path.join(veil.dataDir, 'keys', 'access-token.jwk.json'), 'utf8'));
    const sign = await createAccessTokenSigner(keys.privateJwk, 3600);
    await settle();
    const baseline = await residentBytesOf(veil.pid);
    let failed = 0;
    for (const target of steps) {
      while (sockets.length < target) {
        const batch = Array.from({ length: Math.min(200, target - sockets.length) }, async (_, k) => {
          const userId = `BENCH${String(sockets.length + k).padStart(21, '0')}`;
          const { token } = await sign(userId, 'bench-session', new Date());
          return new Promise<Socket | null>((resolve) => {
            const socket = io(veil.url, {
              transports: ['websocket'],
              auth: { token },
              extraHeaders: { origin: veil.url },
              reconnection: false,
            });
            socket.once('connect', () => resolve(socket));
            socket.once('connect_error', () => {
              failed++;
              socket.close();
              resolve(null);
            });
          });
        });
        for (const socket of await Promise.all(batch)) if (socket) sockets.push(socket);
        if (failed > target) break;
      }
      await settle();
      const rss = await residentBytesOf(veil.pid);
      results.push({
        sockets: sockets.length,
        rssMiB: Number((rss / 1024 / 1024).toFixed(1)),
        bytesPerSocket: Math.round((rss - baseline) / Math.max(1, sockets.length)),
        failed,
      });
    }
  } finally {
    for (const socket of sockets) socket.close();
    await veil.stop();
  }
  return results;
};
