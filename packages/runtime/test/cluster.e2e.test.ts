import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndividualPayload, decryptMessage } from '@veil/crypto';
import { freePortBlock, natsUrl, redisUrl, uniquePrefix } from '@veil/test-env';
import { createApi } from './support/api-client.ts';
import { allClusterPortOffsets, clusterPortOffsets } from '../src/cluster-ports.ts';
import { deleteRedisKeys, deleteStreams } from '../src/testing/cleanup.ts';
import { createUser } from './support/users.ts';

/**
 * `npm run cluster` for real: seven OS processes on NATS and Redis, the gateway proxying sockets
 * to two realtime replicas. A message sent over HTTP reaches a socket connected through the
 * gateway; a service killed with kill -9 is started again; Ctrl-C (SIGINT) stops every process
 * cleanly.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
let base: number;
let ports: number[];
let cluster: ChildProcess;
let dataDir: string;
let output = '';
const prefix = uniquePrefix('c');

const ready = async (port: number) => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200;
  } catch {
    return false;
  }
};

beforeAll(async () => {
  base = await freePortBlock(allClusterPortOffsets);
  ports = allClusterPortOffsets.map((offset) => base + offset);
  dataDir = await mkdtemp(path.join(tmpdir(), 'veil-cluster-'));
  cluster = spawn(process.execPath, ['packages/runtime/src/bin/cluster.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(base),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      VEIL_STREAM_PREFIX: prefix,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cluster.stdout!.on('data', (chunk) => (output += chunk));
  cluster.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 60_000;
  while (!(await Promise.all(ports.map(ready))).every(Boolean)) {
    if (Date.now() > deadline || cluster.exitCode !== null)
      throw new Error(`cluster did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}, 90_000);

afterAll(async () => {
  if (cluster.exitCode === null) cluster.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
  await deleteStreams(natsUrl(), prefix);
  await deleteRedisKeys(redisUrl(), prefix);
});

describe('npm run cluster', () => {
  it('serves the API and delivers over a socket proxied to a realtime replica', async () => {
    const url = `http://127.0.0.1:${base}`;
    const api = createApi(url);
    const alice = await createUser(api, 'ca');
    const bob = await createUser(api, 'cb');

    const socket = io(url, {
      transports: ['websocket'],
      auth: { token: bob.accessToken },
      extraHeaders: { origin: `http://127.0.0.1:${base}` },
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const received = new Promise<{
      message: { content: string; iv: string; encryptedKeys: Record<string, string> };
    }>((resolve) => socket.once('message received', resolve));
    const payload = await buildIndividualPayload('through the cluster', {
      recipientId: bob._id,
      recipientKey: bob.keys.publicKey,
      senderId: alice._id,
      senderKey: alice.keys.publicKey,
    });
    expect(
      (await api.post(`/api/v1/message/sendIndividualMessage/${bob._id}`, payload, alice.accessToken)).status,
    ).toBe(201);
    const { message } = await received;
    expect(await decryptMessage(message, bob._id, bob.keys.privateKey)).toBe('through the cluster');
    socket.close();
  });

  it('starts a service again when it dies, and it serves again', async () => {
    const pid = Number(/^message \| started \(pid (\d+)\)$/m.exec(output)?.[1]);
    expect(pid).toBeGreaterThan(0);
    process.kill(pid, 'SIGKILL');
    await expect
      .poll(() => output, { timeout: 10_000 })
      .toContain('message | exited (SIGKILL); restarting in 1 s');
    await expect
      .poll(() => ready(base + clusterPortOffsets.message), { timeout: 30_000, interval: 250 })
      .toBe(true);
    expect(output).toMatch(/^message \| started \(pid (?!${pid}\))\d+\)$/m);

    const api = createApi(`http://127.0.0.1:${base}`);
    const [alice, bob] = [await createUser(api, 'ra'), await createUser(api, 'rb')];
    const payload = await buildIndividualPayload('after a restart', {
      recipientId: bob._id,
      recipientKey: bob.keys.publicKey,
      senderId: alice._id,
      senderKey: alice.keys.publicKey,
    });
    expect(
      (await api.post(`/api/v1/message/sendIndividualMessage/${bob._id}`, payload, alice.accessToken)).status,
    ).toBe(201);
  }, 60_000);

  it('stops every process on SIGINT', async () => {
    const exited = new Promise<number | null>((resolve) => cluster.once('exit', (code) => resolve(code)));
    cluster.kill('SIGINT');
    expect(await exited, output).toBe(0);
    expect(await Promise.all(ports.map(ready))).toEqual(ports.map(() => false));
  }, 30_000);
});
