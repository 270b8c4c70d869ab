import type { ClientToServerEvents, MessageView, ServerToClientEvents } from '@veil/contracts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNewMessageRouter, type NewMessage } from './new-messages.ts';

/** The router over a real Socket.IO connection on loopback: the server emits, the router delivers. */
describe('the new-message router', () => {
  let server: Server<ClientToServerEvents, ServerToClientEvents>;
  let client: Socket<ServerToClientEvents, ClientToServerEvents>;

  beforeAll(async () => {
    const http = createServer();
    server = new Server(http);
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    client = connect(`http://127.0.0.1:${port}`, { transports: ['websocket'] });
    await new Promise<void>((resolve) => client.once('connect', resolve));
  });
  afterAll(async () => {
    client.close();
    await server.close();
  });

  const message = (id: string): MessageView =>
    ({
      _id: id,
      chat: 'c1',
      sender: { _id: 'bob' },
      content: 'x',
      iv: 'y',
      encryptedKeys: {},
    }) as unknown as MessageView;
  type Arrived = NewMessage<string, { userId: string }>;
  const collect = () => {
    const seen: Arrived[] = [];
    return { seen, follower: (arrived: Arrived) => void seen.push(arrived) };
  };

  it('listens once, reads each message once per reader, and hands it to every follower in order', async () => {
    const reads: string[] = [];
    const router = createNewMessageRouter(client, async (m: MessageView, reader: { userId: string }) => {
      reads.push(`${m._id} for ${reader.userId}`);
      return `text of ${m._id}`;
    });
    const order: string[] = [];
    const first = collect();
    const second = collect();
    const stops = [
      router.follow((arrived) => (order.push('first'), first.follower(arrived))),
      router.follow((arrived) => (order.push('second'), second.follower(arrived))),
    ];
    expect(client.listeners('message received')).toHaveLength(1);

    server.emit('message received', { message: message('m1') });
    await expect.poll(() => second.seen.length).toBe(1);
    expect(order).toEqual(['first', 'second']);
    const [a, b] = [first.seen[0]!, second.seen[0]!];
    expect(await Promise.all([a.read({ userId: 'alice' }), b.read({ userId: 'alice' })])).toEqual([
      'text of m1',
      'text of m1',
    ]);
    expect(reads).toEqual(['m1 for alice']);
    // Another account reading in the same tab reads for itself.
    await b.read({ userId: 'carol' });
    expect(reads).toEqual(['m1 for alice', 'm1 for carol']);

    for (const stop of stops) stop();
    expect(client.listeners('message received')).toHaveLength(0);
    expect(client.listeners('message sent')).toHaveLength(0);
  });

  it("gives a follower this account's own sends only when it asks for them", async () => {
    const router = createNewMessageRouter(client, async (m: MessageView) => m._id);
    const others = collect();
    const all = collect();
    const stops = [router.follow(others.follower), router.follow(all.follower, { own: true })];
    server.emit('message sent', { message: message('mine') });
    server.emit('message received', { message: message('theirs') });
    await expect
      .poll(() => all.seen.map((arrived) => [arrived.message._id, arrived.own]))
      .toEqual([
        ['mine', true],
        ['theirs', false],
      ]);
    expect(others.seen.map((arrived) => arrived.message._id)).toEqual(['theirs']);
    for (const stop of stops) stop();
  });
});
