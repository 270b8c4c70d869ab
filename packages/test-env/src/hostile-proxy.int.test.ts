import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { startHostileProxy, type HostileProxy } from './hostile-proxy.ts';

/** An unsigned JWT naming `sub`: the proxy reads tokens, it does not check them. */
const tokenFor = (sub: string) =>
  ['{"alg":"none"}', JSON.stringify({ sub }), '']
    .map((part) => Buffer.from(part).toString('base64url'))
    .join('.');

describe('the hostile proxy', () => {
  let upstream: Server;
  let proxy: HostileProxy;
  /** What the upstream's sockets received, and the sockets themselves. */
  const received: string[] = [];
  const upstreamSockets: WebSocket[] = [];

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify({ path: req.url, origin: req.headers.origin ?? null, echo: body || null }));
      });
    });
    const sockets = new WebSocketServer({ server: upstream });
    sockets.on('connection', (socket) => {
      upstreamSockets.push(socket);
      socket.on('message', (data) => received.push(data.toString()));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    proxy = await startHostileProxy({
      target: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    });
  });
  afterAll(async () => {
    await proxy.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  const get = async (path: string, viewer?: string) =>
    (
      await fetch(`${proxy.url}${path}`, {
        headers: viewer ? { authorization: `Bearer ${tokenFor(viewer)}` } : {},
      })
    ).json();

  it('passes answers through, and records each API request with its viewer and JSON body', async () => {
    const answer = await fetch(`${proxy.url}/api/v1/thing`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenFor('alice')}`,
        'content-type': 'application/json',
        origin: proxy.url,
      },
      body: JSON.stringify({ hello: 1 }),
    });
    // Veil sees its own origin: it is configured for the address the proxy serves.
    expect(await answer.json()).toEqual({
      path: '/api/v1/thing',
      origin: new URL(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`).origin,
      echo: '{"hello":1}',
    });
    expect(proxy.requests.at(-1)).toEqual({
      method: 'POST',
      path: '/api/v1/thing',
      viewer: 'alice',
      body: { hello: 1 },
    });
  });

  it("rewrites a route's JSON answer, for one viewer only if asked, until told to stop", async () => {
    const stop = proxy.rewriteJson({ method: 'GET', path: '/api/v1/user/publicKey/:id' }, (body, context) =>
      context.viewer === 'alice' ? { ...(body as object), swapped: context.params.id } : undefined,
    );
    expect(await get('/api/v1/user/publicKey/bob?x=1', 'alice')).toMatchObject({ swapped: 'bob' });
    expect(await get('/api/v1/user/publicKey/bob', 'carol')).not.toHaveProperty('swapped');
    expect(await get('/api/v1/user/other/bob', 'alice')).not.toHaveProperty('swapped');
    stop();
    expect(await get('/api/v1/user/publicKey/bob', 'alice')).not.toHaveProperty('swapped');
  });

  it('rewrites, drops and injects Socket.IO events in either direction, per viewer', async () => {
    const client = new WebSocket(`${proxy.url.replace('http', 'ws')}/socket.io/?EIO=4&transport=websocket`);
    const toClient: string[] = [];
    client.on('message', (data) => toClient.push(data.toString()));
    await new Promise((resolve) => client.once('open', resolve));
    client.send(`40${JSON.stringify({ token: tokenFor('bob') })}`);
    await expect.poll(() => upstreamSockets.length).toBe(1);
    const server = upstreamSockets[0]!;

    const stopRewrite = proxy.rewriteEvents('toClient', (event) =>
      event.name === 'message received' ? { name: event.name, args: [{ forged: true }] } : undefined,
    );
    const stopDrop = proxy.rewriteEvents('toServer', (event) => (event.name === 'typing' ? null : undefined));
    server.send('42["message received",{"text":"real"}]');
    server.send('43["ack kept"]');
    client.send('42["typing","chat-1"]');
    client.send('4212["send message",{"chatId":"chat-1"}]');
    await expect.poll(() => toClient.length).toBe(2);
    proxy.injectEvent('toClient', { name: 'planted', args: [1] }, 'bob');
    proxy.injectEvent('toClient', { name: 'for someone else', args: [] }, 'carol');

    await expect
      .poll(() => toClient)
      .toEqual(['42["message received",{"forged":true}]', '43["ack kept"]', '42["planted",1]']);
    // The ack id stays with its event; the dropped one never reached the server.
    await expect.poll(() => received.slice(1)).toEqual(['4212["send message",{"chatId":"chat-1"}]']);
    expect(received[0]).toMatch(/^40\{"token"/);
    expect(proxy.events.map(({ direction, viewer, name }) => [direction, viewer, name])).toEqual([
      ['toClient', 'bob', 'message received'],
      ['toServer', 'bob', 'send message'],
      ['toClient', 'bob', 'planted'],
    ]);
    stopRewrite();
    stopDrop();
    server.send('42["message received",{"text":"real"}]');
    await expect.poll(() => toClient.at(-1)).toBe('42["message received",{"text":"real"}]');
    client.close();
  });
});
