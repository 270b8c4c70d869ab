import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Logger } from '@veil/ports';
import { forwardRealtimeUpgrades } from './realtime-proxy.ts';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

/** A stand-in realtime replica in a process of its own: ready on /readyz, says its name on connect. */
const replicaSource = `
const http = require('node:http');
const { WebSocketServer } = require('ws');
const name = process.argv.at(-1);
const server = http.createServer((req, res) => { res.writeHead(req.url === '/readyz' ? 200 : 404); res.end(); });
new WebSocketServer({ server, path: '/socket.io/' }).on('connection', (ws) => ws.send(name));
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

const startReplica = async (name: string) => {
  const child = spawn(process.execPath, ['-e', replicaSource, name], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [port] = (await once(child.stdout!, 'data')) as [Buffer];
  return { child, url: `http://127.0.0.1:${port.toString().trim()}` };
};

describe('forwarding sockets to realtime replicas by health', () => {
  let replicas: { child: ChildProcess; url: string }[];
  let gateway: Server;
  let stopProxy: () => void;
  let gatewayPort: number;

  /** The name of the replica a new socket through the gateway lands on (null: refused). */
  const connectOnce = () =>
    new Promise<string | null>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}/socket.io/?EIO=4&transport=websocket`);
      const timer = setTimeout(() => (ws.terminate(), resolve(null)), 2_000);
      ws.once('message', (data) => (clearTimeout(timer), ws.close(), resolve(String(data))));
      ws.once('error', () => (clearTimeout(timer), resolve(null)));
    });
  const landings = async (count: number) => {
    const names: (string | null)[] = [];
    for (let n = 0; n < count; n++) names.push(await connectOnce());
    return names;
  };
  /** The status a new socket through the gateway is refused with (undefined: not refused so). */
  const refusalStatus = () =>
    new Promise<number | undefined>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${gatewayPort}/socket.io/?EIO=4&transport=websocket`);
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode));
      ws.once('open', () => (ws.close(), resolve(undefined)));
      ws.once('error', () => resolve(undefined));
    });
  /** Until the probes (every 200 ms) see the change; a socket that lands on a frozen replica waits 2 s. */
  const untilProbed = { timeout: 20_000, interval: 100 };

  beforeAll(async () => {
    replicas = await Promise.all([startReplica('a'), startReplica('b')]);
    gateway = createServer((_req, res) => res.end());
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayPort = (gateway.address() as { port: number }).port;
    stopProxy = forwardRealtimeUpgrades(
      gateway,
      replicas.map((r) => r.url),
      quiet,
      { intervalMs: 200, timeoutMs: 300 },
    );
  });

  afterAll(async () => {
    stopProxy();
    gateway.close();
    for (const { child } of replicas) child.kill('SIGKILL');
  });

  it('spreads sockets over ready replicas, skips a frozen one and a dead one, and takes a thawed one back', async () => {
    const [a, b] = [replicas[0]!, replicas[1]!];
    expect(new Set(await landings(4))).toEqual(new Set(['a', 'b']));

    // Frozen: the kernel still accepts its connections, nothing answers them.
    a.child.kill('SIGSTOP');
    await expect.poll(() => landings(6), untilProbed).toEqual(['b', 'b', 'b', 'b', 'b', 'b']);

    a.child.kill('SIGCONT');
    await expect.poll(async () => (await landings(2)).includes('a'), untilProbed).toBe(true);

    // Dead: refused at once, so the next probe (or the first failed socket) marks it down.
    b.child.kill('SIGKILL');
    await expect.poll(() => landings(6), untilProbed).toEqual(['a', 'a', 'a', 'a', 'a', 'a']);
  }, 90_000);

  it('refuses a socket with 503 when no replica is ready', async () => {
    for (const { child } of replicas) child.kill('SIGKILL');
    await expect.poll(refusalStatus, untilProbed).toBe(503);
  });
});
