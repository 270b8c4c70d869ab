import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from './support/api-client.ts';
import { startLoggedVeil, type LogEntry, type LoggedVeil } from './support/logged-veil.ts';
import { createUser, directMessage, type TestUser } from './support/users.ts';

/**
 * A trace id sent in `traceparent` follows the request: the gateway's request line, the message
 * service's lines for the RPC call, and the realtime fan-out's line for the delivery all carry
 * it. The process is a real `veil` (all services, embedded) with its JSON logs read from stdout.
 */
describe('trace ids in the logs (embedded)', () => {
  let veil: LoggedVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    veil = await startLoggedVeil();
    api = createApi(veil.url);
    [alice, bob] = await Promise.all([createUser(api, 'ta'), createUser(api, 'tb')]);
  });
  afterAll(() => veil?.stop());

  const send = async (text: string, headers: Record<string, string> = {}) =>
    api.call('POST', `/api/v1/message/sendIndividualMessage/${bob._id}`, {
      token: alice.accessToken,
      headers,
      json: await directMessage(alice, bob, text),
    });

  const linesOf = (traceId: string) => veil.entries.filter((entry) => entry.traceId === traceId);
  const has = (lines: LogEntry[], expected: Partial<LogEntry>) =>
    lines.some((line) => Object.entries(expected).every(([key, value]) => line[key] === value));

  it("carries the caller's trace id to the gateway, the message service and the fan-out", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const response = await send('traced', { traceparent: `00-${traceId}-00f067aa0ba902b7-01` });
    expect(response.status).toBe(201);
    // The delivery can be logged before the response's own line: wait for every one of them.
    await expect
      .poll(() => {
        const lines = linesOf(traceId);
        return {
          gateway: has(lines, {
            service: 'gateway',
            msg: 'request handled',
            status: 201,
            route: '/api/v1/message/sendIndividualMessage/:recipientId',
          }),
          chat: has(lines, { service: 'chat', msg: 'rpc handled', operation: 'ensureDirect' }),
          message: has(lines, { service: 'message', msg: 'rpc handled', operation: 'send', code: 'OK' }),
          realtime: has(lines, { service: 'realtime', msg: 'message event delivered' }),
        };
      })
      .toEqual({ gateway: true, chat: true, message: true, realtime: true });
    const lines = linesOf(traceId);
    // Nothing of another request carries it.
    expect(lines.every((line) => line.service !== 'user' && line.service !== 'auth')).toBe(true);
  });

  it('starts a new trace for a request without one, or with a malformed traceparent', async () => {
    const known = new Set(veil.entries.map((entry) => entry.traceId));
    expect((await send('untraced', { traceparent: 'not-a-trace' })).status).toBe(201);
    await expect
      .poll(() =>
        veil.entries.find(
          (entry) => entry.msg === 'request handled' && entry.status === 201 && !known.has(entry.traceId),
        ),
      )
      .toBeDefined();
    const fresh = veil.entries.find(
      (entry) => entry.msg === 'request handled' && entry.status === 201 && !known.has(entry.traceId),
    )!;
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    await expect
      .poll(() => has(linesOf(fresh.traceId!), { service: 'message', msg: 'rpc handled', operation: 'send' }))
      .toBe(true);
  });

  it("answers an unexpected failure with a 500 naming the request's trace id, as its log line does", async () => {
    // A directory where a picture's bytes should be: reading it fails in a way no code expects.
    const picture = path.join(veil.dataDir, 'blobs', 'avatars', 'broken.png');
    await mkdir(picture, { recursive: true });
    await writeFile(`${picture}.type`, 'image/png');
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const response = await api.call('GET', '/api/v1/media/avatars/broken.png', {
      headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` },
    });
    expect(response.status).toBe(500);
    expect(response.body).toEqual({
      success: false,
      message: `Internal server error (trace ${traceId})`,
      code: 'INTERNAL',
    });
    await expect
      .poll(() => has(linesOf(traceId), { service: 'gateway', msg: 'unhandled request error' }))
      .toBe(true);
  });
});
