import { limits, type ErrorBody } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { eventTimeoutMs, type TestClient } from './test-clients.ts';
import type { World } from './suite-world.ts';

type Reply = { ok: true; data?: unknown } | { ok: false; error: ErrorBody };

/** Emits a link event and resolves with the gateway's ack. */
const ask = (client: TestClient, event: string, payload: unknown): Promise<Reply> =>
  (
    client.socket.timeout(eventTimeoutMs) as unknown as {
      emitWithAck(event: string, payload: unknown): Promise<Reply>;
    }
  ).emitWithAck(event, payload);

const dataOf = <T>(reply: Reply): T => {
  if (!reply.ok) throw new Error(`refused: ${reply.error.code} ${reply.error.message}`);
  return reply.data as T;
};
const codeOf = (reply: Reply) => (reply.ok ? 'accepted' : reply.error.code);

/** A SHA-256 commitment's shape: 32 bytes, base64. */
const commitment = Buffer.alloc(32, 7).toString('base64');

/**
 * The browser-link rendezvous against real sockets: in the cluster run, the opener and the
 * joiner sit on different replicas and share the link through Redis. Every refusal is checked
 * to relay nothing: a last legitimate message is the barrier, and it must be the only one.
 */
export const describeLinks = (world: World) => {
  describe('browser links', () => {
    /** A user's new browser with an open link, and the user's logged-in browser. */
    const openedLink = async () => {
      const [userId] = world.users(1) as [string];
      const fresh = await world.connect(userId);
      const old = await world.connect(userId);
      const { linkId, expiresAt } = dataOf<{ linkId: string; expiresAt: string }>(
        await ask(fresh, 'link open', { commitment }),
      );
      return { userId, fresh, old, linkId, expiresAt };
    };

    const relayed = (client: TestClient) => client.all('link relay').map(([m]) => m.data);

    it('joins two sockets of one user and relays opaque messages both ways, then closes', async () => {
      const { fresh, old, linkId, expiresAt } = await openedLink();
      expect(linkId).toMatch(/^[0-9a-f]{32}$/);
      const ttlMs = Date.parse(expiresAt) - Date.now();
      expect(ttlMs).toBeGreaterThan(0);

      const joined = dataOf<{ commitment: string }>(await ask(old, 'link join', { linkId }));
      expect(joined.commitment).toBe(commitment);
      await fresh.next('link joined', (n) => n.linkId === linkId);

      expect(codeOf(await ask(old, 'link relay', { linkId, data: 'from the old browser' }))).toBe('accepted');
      await fresh.next('link relay', (m) => m.data === 'from the old browser');
      expect(codeOf(await ask(fresh, 'link relay', { linkId, data: 'from the new browser' }))).toBe(
        'accepted',
      );
      await old.next('link relay', (m) => m.data === 'from the new browser');

      expect(codeOf(await ask(old, 'link close', { linkId }))).toBe('accepted');
      expect((await fresh.next('link closed'))[0]).toEqual({ linkId, reason: 'cancelled' });
      expect(codeOf(await ask(fresh, 'link relay', { linkId, data: 'too late' }))).toBe('LINK_USED');
      expect(relayed(old)).toEqual(['from the new browser']);
      expect(relayed(fresh)).toEqual(['from the old browser']);
    });

    it('refuses another user as if the link did not exist, and leaves it to its owner', async () => {
      const { fresh, old, linkId } = await openedLink();
      const [malloryId] = world.users(1) as [string];
      const mallory = await world.connect(malloryId);
      expect(codeOf(await ask(mallory, 'link join', { linkId }))).toBe('LINK_NOT_FOUND');
      expect(codeOf(await ask(mallory, 'link relay', { linkId, data: 'let me in' }))).toBe('LINK_NOT_FOUND');
      expect(codeOf(await ask(mallory, 'link close', { linkId }))).toBe('LINK_NOT_FOUND');

      // The owner's browser still joins: the stranger used nothing up.
      dataOf(await ask(old, 'link join', { linkId }));
      expect(codeOf(await ask(mallory, 'link relay', { linkId, data: 'now?' }))).toBe('LINK_NOT_FOUND');
      await ask(old, 'link relay', { linkId, data: 'barrier' });
      await fresh.next('link relay', (m) => m.data === 'barrier');
      expect(relayed(fresh)).toEqual(['barrier']);
      expect(fresh.all('link joined')).toHaveLength(1);
      expect(mallory.all('link relay')).toHaveLength(0);
    });

    it('lets one socket join: a second joiner, a replay and the opener itself are refused', async () => {
      const { userId, fresh, old, linkId } = await openedLink();
      expect(codeOf(await ask(fresh, 'link join', { linkId }))).toBe('LINK_USED');
      dataOf(await ask(old, 'link join', { linkId }));
      const third = await world.connect(userId);
      expect(codeOf(await ask(third, 'link join', { linkId }))).toBe('LINK_USED');
      expect(codeOf(await ask(old, 'link join', { linkId }))).toBe('LINK_USED');
      expect(codeOf(await ask(third, 'link relay', { linkId, data: 'sneaking in' }))).toBe('LINK_NOT_FOUND');

      await ask(old, 'link close', { linkId });
      await fresh.next('link closed');
      expect(codeOf(await ask(third, 'link join', { linkId }))).toBe('LINK_USED');
      expect(fresh.all('link joined')).toHaveLength(1);
      expect(relayed(fresh)).toEqual([]);
      expect(relayed(third)).toEqual([]);
    });

    it('refuses an unknown link and, once it has expired, a join or a relay on it', async () => {
      const [userId] = world.users(1) as [string];
      const someone = await world.connect(userId);
      expect(codeOf(await ask(someone, 'link join', { linkId: '0'.repeat(32) }))).toBe('LINK_NOT_FOUND');

      const unjoined = await openedLink();
      const joined = await openedLink();
      dataOf(await ask(joined.old, 'link join', { linkId: joined.linkId }));
      const wait = { timeout: Date.parse(unjoined.expiresAt) - Date.now() + 10_000, interval: 250 };
      // The opener asking to relay on its unjoined link changes nothing: it waits for the expiry.
      await expect
        .poll(
          async () => codeOf(await ask(unjoined.fresh, 'link relay', { linkId: unjoined.linkId, data: 'x' })),
          wait,
        )
        .toBe('LINK_EXPIRED');
      expect(codeOf(await ask(unjoined.old, 'link join', { linkId: unjoined.linkId }))).toBe('LINK_EXPIRED');
      expect(codeOf(await ask(joined.old, 'link relay', { linkId: joined.linkId, data: 'late' }))).toBe(
        'LINK_EXPIRED',
      );
      expect(unjoined.fresh.all('link joined')).toHaveLength(0);
      expect(relayed(joined.fresh)).toEqual([]);
    });

    it('refuses malformed, oversized and surplus messages with a clear error and relays none', async () => {
      const { fresh, old, linkId } = await openedLink();
      const refusals = [
        await ask(fresh, 'link open', { commitment: 'short' }),
        await ask(fresh, 'link open', { commitment, extra: 1 }),
        await ask(fresh, 'link open', 'not an object'),
        await ask(old, 'link join', { linkId: 'Z'.repeat(32) }),
        await ask(old, 'link join', {}),
      ];
      dataOf(await ask(old, 'link join', { linkId }));
      refusals.push(
        await ask(old, 'link relay', { linkId, data: 'x'.repeat(limits.linkMessageMaxChars + 1) }),
        await ask(old, 'link relay', { linkId, data: { not: 'a string' } }),
        await ask(old, 'link relay', { linkId, data: '' }),
        await ask(old, 'link relay', { linkId, data: 'ok', to: 'someone else' }),
      );
      for (const reply of refusals) {
        expect(codeOf(reply)).toBe('VALIDATION_FAILED');
        expect(reply.ok ? '' : reply.error.message).not.toBe('');
      }
      // Without an ack a client learns nothing, so an open without one is refused on the error channel.
      fresh.socket.emit('link open', { commitment } as never, undefined as never);
      expect((await fresh.next('error'))[0].code).toBe('VALIDATION_FAILED');

      // The largest message passes; the link carries a bounded number of messages.
      const largest = 'y'.repeat(limits.linkMessageMaxChars);
      for (let i = 0; i < limits.linkMessagesMax; i += 1)
        dataOf(await ask(old, 'link relay', { linkId, data: i === 0 ? largest : `m${i}` }));
      expect(codeOf(await ask(old, 'link relay', { linkId, data: 'one too many' }))).toBe('RATE_LIMITED');
      await fresh.next('link relay', (m) => m.data === `m${limits.linkMessagesMax - 1}`);
      expect(relayed(fresh)).toHaveLength(limits.linkMessagesMax);
      expect(relayed(fresh)[0]).toBe(largest);
    });

    it('tells the other browser when one goes away, and the link stays used', async () => {
      const { userId, fresh, old, linkId } = await openedLink();
      dataOf(await ask(old, 'link join', { linkId }));
      fresh.close();
      expect((await old.next('link closed'))[0]).toEqual({ linkId, reason: 'left' });
      const another = await world.connect(userId);
      expect(codeOf(await ask(another, 'link join', { linkId }))).toBe('LINK_USED');
    });
  });
};
