import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { createApi } from './support/api-client.ts';
import { startTestVeil } from './support/test-veil.ts';
import { createUser } from './support/users.ts';

describe('stopping the app with browsers connected', () => {
  it('cuts open sockets instead of waiting for them, so the client reconnects by itself', async () => {
    const veil = await startTestVeil();
    const user = await createUser(createApi(veil.url), 'stop');
    const socket = io(veil.url, {
      transports: ['websocket'],
      auth: { token: user.accessToken },
      extraHeaders: { origin: veil.url },
      reconnection: false,
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('connect_error', reject);
    });
    const disconnected = new Promise<string>((resolve) => socket.once('disconnect', resolve));

    const started = Date.now();
    await veil.destroy();
    // An open websocket used to hold the HTTP server open until the 15 s shutdown limit.
    expect(Date.now() - started).toBeLessThan(3_000);
    // "transport close", not "io server disconnect": Socket.IO clients reconnect after the former only.
    expect(await disconnected).toBe('transport close');
  });
});
