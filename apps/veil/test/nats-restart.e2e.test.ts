import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientToServerEvents, MessageView, ServerToClientEvents } from '@veil/contracts';
import { io, type Socket } from 'socket.io-client';
import { redisUrl, startRestartableNats, uniquePrefix, type RestartableNats } from '@veil/test-env';
import { createApi, type Api } from './support/api-client.ts';
import { deleteRedisKeys } from './support/cleanup.ts';
import { startCluster, type ClusterProcess } from './support/cluster-process.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { createSigningUser, createUser, directMessage, sendDirect, type TestUser } from './support/users.ts';

/**
 * NATS killed (kill -9) and started again on the same store, under a running app: reads, sends
 * and deliveries come back, and every acknowledged message is in the history once. How long that
 * takes is printed, not asserted: `npm run bench -- --nats-restart <rounds>` measures it. The
 * app's NATS is a server of this test's own, so the restart disturbs no other test.
 */
const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 30_000) => {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
};

describe('a NATS restart under a running app', () => {
  let nats: RestartableNats;
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let bobSocket: Socket<ServerToClientEvents, ClientToServerEvents>;
  const received: MessageView[] = [];

  const send = (text: string) => sendDirect(api, alice, bob, text);

  beforeAll(async () => {
    nats = await startRestartableNats();
    veil = await startTestVeil({
      env: {
        NATS_URL: nats.url,
        REDIS_URL: redisUrl(),
        VEIL_STREAM_PREFIX: uniquePrefix('t'),
      },
    });
    api = createApi(veil.url);
    [alice, bob] = await Promise.all([createUser(api, 'nr'), createUser(api, 'nr')]);
    bobSocket = io(veil.url, {
      transports: ['websocket'],
      auth: { token: bob.accessToken },
      extraHeaders: { origin: veil.url },
    });
    bobSocket.on('message received', ({ message }) => received.push(message));
    await new Promise<void>((resolve) => bobSocket.once('connect', () => resolve()));
  });

  afterAll(async () => {
    bobSocket?.disconnect();
    await veil?.destroy();
    await nats?.stop();
  });

  it('reads, sends and delivers again, and loses and doubles nothing', async () => {
    const first = await send('before the restart');
    expect(first.status).toBe(201);
    const chatId: string = first.body.data.chat._id;
    await until('the first delivery', async () => received.length === 1);

    // Alice keeps sending through the outage, as a busy chat would.
    let sending = true;
    const acknowledged = [first.body.data.message._id as string];
    const load = (async () => {
      for (let n = 0; sending; n++) {
        const res = await send(`during ${n}`).catch(() => undefined);
        if (res?.status === 201) acknowledged.push(res.body.data.message._id);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await nats.kill();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await nats.start();

    // Bob wrote nothing: his read does not wait for any projection to catch up.
    const readMs = await until('a history read', async () => {
      const res = await api.get(`/api/v1/chat/getallmessages/${chatId}`, bob.accessToken);
      return res.status === 200;
    });

    sending = false;
    await load;
    let sent: Awaited<ReturnType<typeof send>> | undefined;
    const sendMs = await until('a send', async () => {
      sent = await send('after the restart');
      return sent.status === 201;
    });
    const id: string = sent!.body.data.message._id;
    const deliverMs = await until('the delivery', async () => received.some((m) => m._id === id));
    acknowledged.push(id);
    // Every acknowledged message is in the history, once.
    const stored: string[] = [];
    for (let after = 0, hasMore = true; hasMore;) {
      const page = await api.get(
        `/api/v1/chat/getallmessages/${chatId}?after=${after}&limit=100`,
        bob.accessToken,
      );
      const messages = page.body.data.messages as { _id: string; seq: number }[];
      stored.push(...messages.map((m) => m._id));
      hasMore = page.body.data.hasMore && messages.length > 0;
      after = messages.at(-1)?.seq ?? after;
    }
    expect(stored).toEqual([...new Set(stored)]);
    expect(stored).toEqual(expect.arrayContaining(acknowledged));
    // No message reached bob's socket twice across the restart.
    const pushed = received.map((m) => m._id);
    expect(pushed).toEqual([...new Set(pushed)]);
    console.log(
      `after the NATS restart: read ${readMs} ms, send ${sendMs} ms, then delivery ${deliverMs} ms`,
    );
  }, 90_000);
});

/**
 * The same under `npm run cluster` (seven processes, each with its own NATS connection and its
 * own ordered consumers, which the restarted server has forgotten): a sender keeps sending to
 * bob through the outage, and after it alice opens a chat with carol. Every acknowledged message
 * is in the history once, reaches bob's socket at most once, and the new chat's first message
 * reaches carol. Timing is the benchmark's (`npm run bench -- --nats-restart`).
 */
describe('a NATS restart under the cluster', () => {
  let nats: RestartableNats;
  let cluster: ClusterProcess;
  const prefix = uniquePrefix('nc');
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  const sockets: Socket[] = [];
  const pushed = new Map<string, string[]>();

  /** Sends one message until it is acknowledged, with one key across attempts, as the web app does. */
  const sendUntilAcknowledged = async (to: TestUser, text: string) => {
    const payload = { ...(await directMessage(alice, to, text)), clientMessageId: randomUUID() };
    for (;;) {
      const res = await api
        .post(`/api/v1/message/sendIndividualMessage/${to._id}`, payload, alice.accessToken)
        .catch(() => undefined);
      if (res?.status === 201)
        return { id: res.body.data.message._id as string, chatId: res.body.data.chat._id as string };
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  const history = async (reader: TestUser, chatId: string) => {
    const stored: string[] = [];
    for (let after = 0, hasMore = true; hasMore;) {
      const page = await api.get(
        `/api/v1/chat/getallmessages/${chatId}?after=${after}&limit=100`,
        reader.accessToken,
      );
      const messages = page.body.data.messages as { _id: string; seq: number }[];
      stored.push(...messages.map((m) => m._id));
      hasMore = page.body.data.hasMore && messages.length > 0;
      after = messages.at(-1)?.seq ?? after;
    }
    return stored;
  };

  beforeAll(async () => {
    nats = await startRestartableNats();
    cluster = await startCluster({
      LOG_LEVEL: 'warn',
      NATS_URL: nats.url,
      REDIS_URL: redisUrl(),
      VEIL_STREAM_PREFIX: prefix,
    });
    const url = `http://127.0.0.1:${cluster.base}`;
    api = createApi(url);
    [alice, bob, carol] = [
      await createSigningUser(api, 'nca'),
      await createSigningUser(api, 'ncb'),
      await createSigningUser(api, 'ncc'),
    ];
    for (const user of [bob, carol]) {
      const socket = io(url, {
        transports: ['websocket'],
        auth: { token: user.accessToken },
        extraHeaders: { origin: url },
      });
      socket.on('message received', ({ message }: { message: { _id: string } }) =>
        pushed.set(user._id, [...(pushed.get(user._id) ?? []), message._id]),
      );
      sockets.push(socket);
      await until(`${user.username} connected`, async () => socket.connected);
    }
  }, 120_000);

  afterAll(async () => {
    for (const socket of sockets) socket.close();
    cluster?.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await cluster?.destroy();
    await nats?.stop();
    await deleteRedisKeys(redisUrl(), prefix);
  });

  it('delivers again, opens a new chat, and loses and doubles nothing', async () => {
    const first = await sendUntilAcknowledged(bob, 'before the restart');
    const acknowledged = [first.id];
    await until('the first delivery', async () => (pushed.get(bob._id) ?? []).includes(first.id));

    let sending = true;
    const load = (async () => {
      for (let n = 0; sending; n++) {
        acknowledged.push((await sendUntilAcknowledged(bob, `during ${n}`)).id);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 500));
    await nats.kill();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await nats.start();

    const opened = await sendUntilAcknowledged(carol, 'a new chat after the restart');
    await until(
      'the new chat delivered',
      async () => (pushed.get(carol._id) ?? []).includes(opened.id),
      60_000,
    );
    const probe = await sendUntilAcknowledged(bob, 'after the restart');
    acknowledged.push(probe.id);
    await until(
      'a delivery after the restart',
      async () => (pushed.get(bob._id) ?? []).includes(probe.id),
      60_000,
    );
    sending = false;
    await load;

    const stored = await history(bob, first.chatId);
    expect(stored).toEqual([...new Set(stored)]);
    expect(stored).toEqual(expect.arrayContaining(acknowledged));
    expect(await history(carol, opened.chatId)).toEqual([opened.id]);
    for (const ids of pushed.values()) expect(ids).toEqual([...new Set(ids)]);
  }, 240_000);
});
