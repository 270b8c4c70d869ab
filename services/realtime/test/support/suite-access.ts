import { describe, expect, it } from 'vitest';
import { newTokenKeys, signToken, testOrigin, type RealtimeCluster } from './harness.ts';
import { connectClient, refusalOf, upgradeAnswer } from './test-clients.ts';
import type { World } from './suite-world.ts';

/** Who may connect, and what happens when the token runs out. */
export const describeAccess = (world: World, cluster: () => RealtimeCluster) => {
  describe('access', () => {
    const url = () => cluster().nodes[0]!;

    it('refuses a handshake without a valid token', async () => {
      const [user] = world.users(1) as [string];
      const { keys } = cluster();
      expect((await refusalOf(url(), { origin: testOrigin })).code).toBe('UNAUTHENTICATED');
      expect((await refusalOf(url(), { origin: testOrigin, token: 'not.a.jwt' })).code).toBe('TOKEN_INVALID');
      const foreign = await signToken(await newTokenKeys(), user);
      expect((await refusalOf(url(), { origin: testOrigin, token: foreign })).code).toBe('TOKEN_INVALID');
      const expired = await signToken(keys, user, {
        ttlSeconds: 60,
        issuedAt: new Date(Date.now() - 3_600_000),
      });
      expect((await refusalOf(url(), { origin: testOrigin, token: expired })).code).toBe('TOKEN_EXPIRED');
    });

    it('refuses an Origin that is not allowed, or none, at the handshake', async () => {
      const [user] = world.users(1) as [string];
      const token = await signToken(cluster().keys, user);
      // Engine.IO refuses the upgrade itself, before Socket.IO reads the token.
      const refused = { status: 400, body: 'Origin not allowed' };
      expect(await upgradeAnswer(url(), 'https://evil.example')).toEqual(refused);
      expect(await upgradeAnswer(url())).toEqual(refused);
      expect(await upgradeAnswer(url(), testOrigin)).toEqual({ status: 101, body: '' });
      // Nor does a socket.io client get through from there.
      await expect(connectClient(url(), user, { origin: 'https://evil.example', token })).rejects.toThrow(
        /websocket error/,
      );
      // The same token from the allowed Origin is accepted, so the refusals were about the Origin.
      const ok = await connectClient(url(), user, { origin: testOrigin, token });
      ok.close();
    });

    it('drops the socket when its token expires, saying why first', async () => {
      const [user] = world.users(1) as [string];
      const token = await signToken(cluster().keys, user, { ttlSeconds: 2 });
      const client = await connectClient(url(), user, { origin: testOrigin, token });
      try {
        expect((await client.next('error'))[0].code).toBe('TOKEN_EXPIRED');
        expect(await client.disconnected).toBe('io server disconnect');
      } finally {
        client.close();
      }
    });

    it('`join chat` is refused for a chat the user is not in', async () => {
      const [alice, bob, mallory] = world.users(3) as [string, string, string];
      const direct = await world.direct(alice, bob);
      const m = await world.connect(mallory);
      m.socket.emit('join chat', direct);
      expect((await m.next('error'))[0].code).toBe('NOT_A_MEMBER');
      m.socket.emit('join chat', '../../etc');
      expect(m.all('error').length).toBeGreaterThanOrEqual(1);
      await m.next('error', () => m.all('error').length === 2);
    });
  });
};
