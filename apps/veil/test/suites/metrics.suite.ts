import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ClientToServerEvents, ServerToClientEvents } from '@veil/contracts';
import { buildGroupPayload } from '@veil/crypto';
import { io, type Socket } from 'socket.io-client';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { scrape, type Scrape } from '../support/prometheus.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createUser, directMessage, type TestUser } from '../support/users.ts';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Which durability metric the event log of this run reports. */
export type LogKind = 'embedded' | 'jetstream';

/**
 * `/metrics` after real traffic: two users register and log in, one sends a message over HTTP
 * (which creates the chat) and one over a socket, and reads the history; every family the
 * operations guide describes is there, with counts that went up for what was done.
 */
export const metricsSuite = (logKind: LogKind, options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let chatId: string;
  let before: Scrape;
  let after: Scrape;
  let socket: ClientSocket;
  let socketsWhileConnected: number | undefined;

  const connect = async (user: TestUser) => {
    const client: ClientSocket = io(veil.url, {
      transports: ['websocket'],
      auth: { token: user.accessToken },
      extraHeaders: { origin: veil.url },
    });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', resolve);
      client.once('connect_error', reject);
    });
    return client;
  };

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    before = await scrape(veil.url);
    [alice, bob] = await Promise.all([createUser(api, 'ma'), createUser(api, 'mb')]);
    const first = await api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      await directMessage(alice, bob, 'over HTTP'),
      alice.accessToken,
    );
    expect(first.status).toBe(201);
    chatId = first.body.data.chat._id;

    socket = await connect(alice);
    socketsWhileConnected = (await scrape(veil.url)).value('veil_realtime_connected_sockets');
    const keys = { [alice._id]: alice.keys.publicKey, [bob._id]: bob.keys.publicKey };
    const reply = await socket.timeout(10_000).emitWithAck('send message', {
      chatId,
      ...(await buildGroupPayload('over the socket', keys)),
    } as never);
    expect(reply.ok).toBe(true);

    expect((await api.get(`/api/v1/chat/getallmessages/${chatId}`, alice.accessToken)).status).toBe(200);
    // A chat that does not exist: the message service refuses, and the caller counts an error.
    const unknownChat = '0123456789ABCDEFGHJKMNPQRS';
    expect((await api.get(`/api/v1/chat/getallmessages/${unknownChat}`, alice.accessToken)).status).toBe(404);
    after = await scrape(veil.url);
  });
  afterAll(async () => {
    socket?.close();
    await veil?.destroy();
  });

  /** How much a counter-like sample grew between the first scrape and the last. */
  const grew = (name: string, labels: Record<string, string> = {}) =>
    (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);

  it('keeps the metrics from a request that a proxy forwarded (the public ingress)', async () => {
    const forwarded = await fetch(`${veil.url}/metrics`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(await forwarded.text()).not.toContain('# TYPE');
    expect(after.families.size).toBeGreaterThan(10);
  });

  it("has prom-client's default process metrics: CPU, memory, event-loop lag, GC", () => {
    expect(after.value('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(after.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(after.families.get('nodejs_eventloop_lag_seconds')).toBe('gauge');
    expect(after.families.get('nodejs_gc_duration_seconds')).toBe('histogram');
  });

  it('counts API requests by method, route template and status, with duration buckets', () => {
    const requests = (method: string, route: string, status: string) =>
      grew('veil_http_request_duration_seconds_count', { method, route, status });
    expect(requests('POST', '/api/v1/user/register', '201')).toBe(2);
    expect(requests('POST', '/api/v1/user/login', '200')).toBe(2);
    expect(requests('POST', '/api/v1/message/sendIndividualMessage/:recipientId', '201')).toBe(1);
    expect(requests('GET', '/api/v1/chat/getallmessages/:chatId', '200')).toBe(1);
    expect(requests('GET', '/api/v1/chat/getallmessages/:chatId', '404')).toBe(1);
    const buckets = after.find('veil_http_request_duration_seconds_bucket', {
      method: 'GET',
      route: '/api/v1/chat/getallmessages/:chatId',
      status: '200',
    });
    expect(buckets.length).toBeGreaterThan(5);
    expect(buckets.find((b) => b.labels.le === '+Inf')?.value).toBe(1);
    expect(
      after.value('veil_http_request_duration_seconds_sum', { route: '/api/v1/user/login' }),
    ).toBeGreaterThan(0);
    // No raw URL (an id) ever becomes a label value.
    const routes = new Set(after.find('veil_http_request_duration_seconds_count').map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toMatch(/[0-9A-Z]{26}/);
  });

  it('measures RPC calls as their callers see them, and counts the failed ones by code', () => {
    expect(
      grew('veil_rpc_client_duration_seconds_count', {
        service: 'message',
        operation: 'send',
        outcome: 'ok',
      }),
    ).toBe(2);
    expect(
      grew('veil_rpc_client_duration_seconds_count', { service: 'auth', operation: 'login', outcome: 'ok' }),
    ).toBe(2);
    expect(
      grew('veil_rpc_client_errors_total', {
        service: 'message',
        operation: 'history',
        code: 'CHAT_NOT_FOUND',
      }),
    ).toBe(1);
  });

  it('counts sends over sockets and deliveries by the fan-out, and the connected sockets', async () => {
    expect(socketsWhileConnected).toBe(1);
    expect(grew('veil_realtime_socket_sends_total', { result: 'stored' })).toBe(1);
    // Both messages reach bob's room: one emit each, whether or not bob is connected.
    await expect
      .poll(async () =>
        (await scrape(veil.url)).value('veil_realtime_deliveries_total', { event: 'message received' }),
      )
      .toBe(2);
    socket.close();
    await expect.poll(async () => (await scrape(veil.url)).value('veil_realtime_connected_sockets')).toBe(0);
  });

  it('times the durable writes of the event log', () => {
    if (logKind === 'embedded') {
      const commits = grew('veil_event_log_commit_duration_seconds_count', { context: 'message' });
      expect(commits).toBeGreaterThanOrEqual(1);
      expect(commits).toBeLessThanOrEqual(2);
      expect(grew('veil_event_log_commit_events_sum', { context: 'message' })).toBe(2);
      expect(grew('veil_event_log_commit_duration_seconds_sum', { context: 'user' })).toBeGreaterThan(0);
    } else {
      expect(
        grew('veil_jetstream_publish_duration_seconds_count', { context: 'message', outcome: 'stored' }),
      ).toBe(2);
      expect(grew('veil_jetstream_publish_duration_seconds_sum', { context: 'user' })).toBeGreaterThan(0);
    }
  });

  it('reports each projection’s lag behind the log per context, and parked events (none)', async () => {
    for (const [projection, context] of [
      ['message_timeline', 'message'],
      ['message_timeline', 'chat'],
      ['chat_list', 'chat'],
      ['auth_credentials', 'user'],
      ['realtime_fanout', 'message'],
    ] as const) {
      await expect
        .poll(async () =>
          (await scrape(veil.url)).value('veil_projection_lag_events', { projection, context }),
        )
        .toBe(0);
      expect(after.value('veil_parked_events_total', { projection, context })).toBe(0);
    }
  });
};
