import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { readMessage } from '@veil/crypto';
import { startVeil, type RunningVeil } from '@veil/app';
import { makeFixtures } from '../k6/precompute.ts';
import { runDeliverySession, type SessionResult, type SocketOpener } from '../k6/lib/delivery-session.js';
import { pairsOf, socketPayload, statusProblem } from '../k6/lib/setup-data.js';
import { createSession, encodeEvent, parseFrame, socketIoUrl } from '../k6/lib/socketio.js';

/**
 * What can be checked of the k6 scripts without k6: they type-check against @types/k6, their
 * Socket.IO framing works against a real Socket.IO server, and their setup and delivery session
 * (the runtime-neutral modules under deploy/k6/lib) work against a real Veil on its default
 * settings, driven here with Node's timers and the `ws` client instead of k6's.
 */
const root = path.resolve(import.meta.dirname, '../..');

describe('k6 scripts', () => {
  it('type-check against @types/k6', async () => {
    const tsc = path.join(root, 'node_modules/typescript/bin/tsc');
    await expect(
      promisify(execFile)(process.execPath, [tsc, '-p', 'deploy/k6/tsconfig.json'], { cwd: root }),
    ).resolves.toBeDefined();
  }, 60_000);

  it('frame Socket.IO correctly against a real Socket.IO server, acks included', async () => {
    const http = createServer();
    const io = new Server(http, { transports: ['websocket'] });
    io.use((socket, next) =>
      socket.handshake.auth.token === 'good' ? next() : next(new Error('bad token')),
    );
    io.on('connection', (socket) => {
      socket.on('join chat', (chatId: string) =>
        socket.emit('message received', { message: { _id: 'm1', chat: chatId } }),
      );
      socket.on('echo', (payload: unknown, ack: (reply: unknown) => void) => ack({ ok: true, payload }));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

    const run = (token: string) =>
      new Promise<{ event?: unknown; acks?: unknown[]; error?: string }>((resolve) => {
        const socket = new WebSocket(socketIoUrl(base));
        const acks: unknown[] = [];
        const session = createSession({
          send: (text) => socket.send(text),
          auth: { token },
          onConnect: () => {
            // Two requests in flight at once: each ack reaches its own callback.
            session.emitWithAck('echo', 'first', (reply) => acks.push(['first', reply]));
            session.emitWithAck('echo', { n: 2 }, (reply) => {
              acks.push(['second', reply]);
              session.emit('join chat', 'c42');
            });
          },
          onEvent: (name, args) => {
            socket.close();
            resolve({ event: { name, args }, acks });
          },
          onError: (message) => {
            socket.close();
            resolve({ error: message });
          },
        });
        socket.on('message', (raw) => session.handle(String(raw)));
      });

    expect(await run('good')).toEqual({
      event: { name: 'message received', args: [{ message: { _id: 'm1', chat: 'c42' } }] },
      acks: [
        ['first', { ok: true, payload: 'first' }],
        ['second', { ok: true, payload: { n: 2 } }],
      ],
    });
    expect(await run('bad')).toEqual({ error: 'bad token' });
    expect(encodeEvent('typing', { chatId: 'c' })).toBe('42["typing",{"chatId":"c"}]');
    expect(parseFrame('2')).toEqual({ kind: 'ping' });
    expect(parseFrame('4312[{"ok":true}]')).toEqual({ kind: 'ack', id: 12, args: [{ ok: true }] });
    expect(parseFrame('427["ask",1]')).toEqual({ kind: 'event', name: 'ask', args: [1] });
    io.close();
  });
});

describe('k6 socket-latency flow against Veil on its default settings', () => {
  let veil: RunningVeil;
  let dataDir: string;
  let made: Awaited<ReturnType<typeof makeFixtures>>;
  /** setup()'s users, by fixture index. */
  let users: { id: string; token: string }[];
  /** setup()'s pairs: sender 0 → recipient 1 and 2 → 3, each with its chat and socket payload. */
  let pairs: { sender: number; recipient: number; chatId: string; payload: Record<string, unknown> }[];

  const post = async (route: string, body: URLSearchParams | object, token?: string) => {
    const response = await fetch(`${veil.url}${route}`, {
      method: 'POST',
      headers: {
        ...(body instanceof URLSearchParams ? {} : { 'content-type': 'application/json' }),
        ...(token && { authorization: `Bearer ${token}` }),
      },
      body: body instanceof URLSearchParams ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  /** As lib/api.js's expectStatus: the answer a step needs, or the reason it is not. */
  const expectStatus = (step: string, answer: { status: number; body: unknown }, expected: number) =>
    expect(statusProblem(step, answer.status, expected, answer.body)).toBeNull();

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veil-k6-'));
    veil = await startVeil({ dataDir });
    made = await makeFixtures(4);
    // setup(): register and log in every fixture user once (form-encoded, as k6 posts an object).
    const run = Date.now().toString(36);
    users = [];
    for (const [i, user] of made.fixtures.users.entries()) {
      const username = `ks${run}${i}`;
      const password = 'k6-password-123';
      expectStatus(
        'register',
        await post(
          '/api/v1/user/register',
          new URLSearchParams({ username, password, publicKey: user.publicKey }),
        ),
        201,
      );
      const login = await post('/api/v1/user/login', { username, password });
      expectStatus('login', login, 200);
      users.push({ id: login.body.data.user.loggedUser._id, token: login.body.data.user.accesstoken });
    }
    pairs = [];
    for (const { sender, recipient, payload } of pairsOf(made.fixtures)) {
      const first = await post(
        `/api/v1/message/sendIndividualMessage/${users[recipient]!.id}`,
        payload,
        users[sender]!.token,
      );
      expectStatus('first message', first, 201);
      const chatId = first.body.data.chat._id as string;
      pairs.push({
        sender,
        recipient,
        chatId,
        payload: socketPayload(payload, {
          senderId: users[sender]!.id,
          recipientId: users[recipient]!.id,
          chatId,
        }),
      });
    }
  }, 60_000);

  afterAll(async () => {
    await veil?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** One VU's session with Node's websockets and timers; resolves with its result and its sockets. */
  const session = (options: {
    senderToken: string;
    recipientToken: string;
    payload: Record<string, unknown>;
    messages: number;
    timeoutMs: number;
  }) =>
    new Promise<{ result: SessionResult; sockets: WebSocket[] }>((resolve) => {
      const sockets: WebSocket[] = [];
      const openSocket: SocketOpener = (url, handlers) => {
        const socket = new WebSocket(url, { headers: { origin: veil.url } });
        socket.on('message', (data) => handlers.onMessage(String(data)));
        socket.on('close', () => handlers.onClose());
        sockets.push(socket);
        return { send: (text) => socket.send(text), close: () => socket.close() };
      };
      runDeliverySession({
        ...options,
        openSocket,
        timers: { setTimeout, clearTimeout, setInterval, clearInterval },
        now: () => Date.now(),
        baseUrl: veil.url,
        idPrefix: `test-${Math.random().toString(36).slice(2, 10)}`,
        intervalMs: 20,
        onDone: (result) => resolve({ result, sockets }),
      });
    });
  const closed = (sockets: WebSocket[]) => sockets.every((s) => s.readyState === WebSocket.CLOSED);

  it('pairs each payload with the users it was encrypted for: the recipient reads what it gets', async () => {
    for (const pair of pairs) {
      const history = await fetch(`${veil.url}/api/v1/chat/getallmessages/${pair.chatId}`, {
        headers: { authorization: `Bearer ${users[pair.recipient]!.token}` },
      });
      // Oldest first: the pair's first message, sent in setup with the fixture payload.
      const [message] = (await history.json()).data.messages as {
        content: string;
        iv: string;
        encryptedKeys: Record<string, string>;
      }[];
      const reading = await readMessage(message!, users[pair.recipient]!.id, [
        made.privateKeys[pair.recipient]!,
      ]);
      expect(reading).toMatchObject({ ok: true, text: `load test message ${pair.sender}` });
    }
  });

  it('sends over the socket, and closes once every message has arrived, not at the timeout', async () => {
    const pair = pairs[0]!;
    const { result, sockets } = await session({
      senderToken: users[pair.sender]!.token,
      recipientToken: users[pair.recipient]!.token,
      payload: pair.payload,
      messages: 8,
      timeoutMs: 120_000, // far beyond the test's own timeout: ending early proves the wait ended on arrival
    });
    expect(result).toMatchObject({
      delivered: 8,
      missing: 0,
      failedSends: 0,
      duplicated: 0,
      endedBy: 'all answered and delivered',
    });
    expect(result.latenciesMs).toHaveLength(8);
    expect(result.latenciesMs.every((ms) => ms >= 0)).toBe(true);
    await expect.poll(() => closed(sockets)).toBe(true);
  });

  it('counts deliveries that never arrive as missing, and closes at the timeout', async () => {
    // The recipient's socket belongs to someone outside the chat: every send is stored, none arrives there.
    const pair = pairs[0]!;
    const { result, sockets } = await session({
      senderToken: users[pair.sender]!.token,
      recipientToken: users[2]!.token,
      payload: pair.payload,
      messages: 3,
      timeoutMs: 1_500,
    });
    expect(result).toMatchObject({ delivered: 0, missing: 3, failedSends: 0, endedBy: 'timeout' });
    await expect.poll(() => closed(sockets)).toBe(true);
  });

  it('counts a refused send as a failed send, not as a delivery to wait for', async () => {
    // Keys wrapped for the wrong member ids: the server refuses every send (KEY_MAP_MISMATCH).
    const pair = pairs[0]!;
    const payload = socketPayload(made.fixtures.payloads[0]!, {
      senderId: users[pair.sender]!.id,
      recipientId: users[3]!.id,
      chatId: pair.chatId,
    });
    const { result } = await session({
      senderToken: users[pair.sender]!.token,
      recipientToken: users[pair.recipient]!.token,
      payload,
      messages: 3,
      timeoutMs: 120_000,
    });
    expect(result).toMatchObject({
      delivered: 0,
      missing: 0,
      failedSends: 3,
      endedBy: 'all answered and delivered',
    });
  });

  it('names the settings to raise when a login is rate limited, instead of failing on a missing body', async () => {
    const username = `ks${Date.now().toString(36)}x`;
    let answer = await post('/api/v1/user/login', { username, password: 'wrong-password-1' });
    for (let attempt = 0; attempt < 10 && answer.status !== 429; attempt++) {
      answer = await post('/api/v1/user/login', { username, password: 'wrong-password-1' });
    }
    expect(answer.status).toBe(429);
    const problem = statusProblem('login', answer.status, 200, answer.body);
    expect(problem).toMatch(/^login answered 429 \(rate limited\)/);
    for (const setting of ['LOGIN_ATTEMPTS_PER_IP', 'WRITES_PER_IP_PER_MINUTE', 'WRITES_PER_USER_PER_MINUTE'])
      expect(problem).toContain(setting);
    expect(statusProblem('login', 401, 200, answer.body)).toMatch(/^login answered 401, expected 200: /);
  });
});
