import { limits, type CallSignalRequest, type ErrorBody } from '@veil/contracts';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventTimeoutMs, type TestClient } from './test-clients.ts';
import type { RealtimeCluster } from './harness.ts';
import type { World } from './suite-world.ts';

type Reply = { ok: true; data?: unknown } | { ok: false; error: ErrorBody };

const ask = (client: TestClient, payload: unknown): Promise<Reply> =>
  (
    client.socket.timeout(eventTimeoutMs) as unknown as {
      emitWithAck(event: string, payload: unknown): Promise<Reply>;
    }
  ).emitWithAck('call signal', payload);

const codeOf = (reply: Reply) => (reply.ok ? 'accepted' : reply.error.code);
const b64 = (bytes: number) => randomBytes(bytes).toString('base64');

/** A signal's shape: the gateway cannot read it, so random bytes of the right sizes do. */
const signal = (chatId: string, to: string, from: string, tag = 'x'): CallSignalRequest => ({
  chatId,
  to,
  callId: randomBytes(16).toString('hex'),
  signal: {
    ciphertext: Buffer.from(`${tag}:${b64(48)}`).toString('base64'),
    iv: b64(12),
    encryptedKeys: { [to]: b64(256), [from]: b64(256) },
    signature: b64(64),
  },
});

const tagOf = (request: CallSignalRequest) =>
  Buffer.from(request.signal.ciphertext, 'base64').toString().split(':')[0];
const tags = (client: TestClient) => client.all('call signal').map(([s]) => tagOf(s));

/**
 * Call signalling against real sockets: in the cluster run, caller and callee (and the callee's
 * second browser) sit on different replicas and are reached through the Redis adapter. Every
 * refusal is checked to relay nothing: a last legitimate signal is the barrier.
 */
export const describeCalls = (world: World, cluster: () => RealtimeCluster) => {
  describe('call signalling', () => {
    const pair = async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const chatId = await world.direct(alice, bob);
      return { alice, bob, chatId };
    };

    it("relays a signal to every browser of the callee and the caller's other browsers, marked with the sender", async () => {
      const { alice, bob, chatId } = await pair();
      const caller = await world.connect(alice);
      const callerElsewhere = await world.connect(alice);
      const bobOne = await world.connect(bob);
      const bobTwo = await world.connect(bob);
      const sent = signal(chatId, bob, alice, 'offer');
      expect(codeOf(await ask(caller, sent))).toBe('accepted');
      for (const client of [bobOne, bobTwo, callerElsewhere]) {
        const [got] = await client.next('call signal');
        expect(got).toEqual({ ...sent, from: alice });
      }
      expect(caller.all('call signal')).toHaveLength(0);
    });

    it('refuses a signal to a chat the caller is not in, to a non-member, to oneself, and relays none', async () => {
      const { alice, bob, chatId } = await pair();
      const [mallory, carol] = world.users(2) as [string, string];
      const malloryAndCarol = await world.direct(mallory, carol);
      const mal = await world.connect(mallory);
      const caller = await world.connect(alice);
      const bobs = await world.connect(bob);
      const carols = await world.connect(carol);

      // Mallory is in no chat with Bob: the chat reads as not found, whoever is named.
      expect(codeOf(await ask(mal, signal(chatId, bob, mallory)))).toBe('CHAT_NOT_FOUND');
      expect(codeOf(await ask(mal, signal(chatId, alice, mallory)))).toBe('CHAT_NOT_FOUND');
      // Alice's chat with Bob does not reach Carol, who is not a member of it.
      expect(codeOf(await ask(caller, signal(chatId, carol, alice)))).toBe('NOT_A_MEMBER');
      // Mallory's own chat with Carol does not reach Bob.
      expect(codeOf(await ask(mal, signal(malloryAndCarol, bob, mallory)))).toBe('NOT_A_MEMBER');
      expect(codeOf(await ask(caller, signal(chatId, alice, alice)))).toBe('VALIDATION_FAILED');
      expect(codeOf(await ask(caller, signal('01J0000000000000000000NONE', bob, alice)))).toBe(
        'CHAT_NOT_FOUND',
      );

      expect(codeOf(await ask(caller, signal(chatId, bob, alice, 'barrier')))).toBe('accepted');
      await bobs.next('call signal');
      expect(tags(bobs)).toEqual(['barrier']);
      expect(carols.all('call signal')).toHaveLength(0);
    });

    it("relays a group call's pairwise signals to each member alone, and refuses one to or from outside the group", async () => {
      const members = world.users(8);
      const [alice, bob, carol] = members as [string, string, string];
      const [mallory] = world.users(1) as [string];
      const chatId = await world.group(members);
      const caller = await world.connect(alice);
      const others = await Promise.all(members.slice(1).map((member) => world.connect(member)));
      const mal = await world.connect(mallory);

      // The caller rings each of the seven others with a signal of their own.
      for (const member of members.slice(1))
        expect(codeOf(await ask(caller, signal(chatId, member, alice, `invite-${member}`)))).toBe('accepted');
      for (const [index, client] of others.entries()) {
        await client.next('call signal');
        expect(tags(client)).toEqual([`invite-${members[index + 1]}`]);
      }
      // Two members who join connect with each other through the same chat.
      expect(codeOf(await ask(others[0]!, signal(chatId, carol, bob, 'offer')))).toBe('accepted');
      await expect.poll(() => tags(others[1]!)).toEqual([`invite-${carol}`, 'offer']);

      // Nobody outside the group is reached, nor reaches in.
      expect(codeOf(await ask(caller, signal(chatId, mallory, alice)))).toBe('NOT_A_MEMBER');
      expect(codeOf(await ask(mal, signal(chatId, bob, mallory)))).toBe('CHAT_NOT_FOUND');
      expect(codeOf(await ask(caller, signal(chatId, bob, alice, 'barrier')))).toBe('accepted');
      await expect.poll(() => tags(others[0]!)).toEqual([`invite-${bob}`, 'barrier']);
      expect(mal.all('call signal')).toHaveLength(0);
      expect(others.slice(2).every((client) => client.all('call signal').length === 1)).toBe(true);
    });

    it('refuses malformed and oversized signals with a clear error', async () => {
      const { alice, bob, chatId } = await pair();
      const caller = await world.connect(alice);
      const bobs = await world.connect(bob);
      const good = signal(chatId, bob, alice);
      const oversized = 'A'.repeat(limits.callSignalCiphertextMaxChars + 4);
      const refusals = [
        await ask(caller, { ...good, signal: { ...good.signal, ciphertext: oversized } }),
        await ask(caller, { ...good, signal: { ...good.signal, ciphertext: 'not base64!' } }),
        await ask(caller, { ...good, signal: { ...good.signal, signature: b64(32) } }),
        await ask(caller, { ...good, signal: { ...good.signal, iv: b64(16) } }),
        await ask(caller, {
          ...good,
          signal: { ...good.signal, encryptedKeys: { a: b64(8), b: b64(8), c: b64(8) } },
        }),
        await ask(caller, { ...good, callId: 'short' }),
        await ask(caller, { ...good, from: bob }),
        await ask(caller, 'not an object'),
      ];
      for (const reply of refusals) {
        expect(codeOf(reply)).toBe('VALIDATION_FAILED');
        expect(reply.ok ? '' : reply.error.message).not.toBe('');
      }
      // The largest ciphertext passes.
      const largest = Buffer.alloc((limits.callSignalCiphertextMaxChars / 4) * 3, 1).toString('base64');
      expect(codeOf(await ask(caller, { ...good, signal: { ...good.signal, ciphertext: largest } }))).toBe(
        'accepted',
      );
      await bobs.next('call signal');
      expect(bobs.all('call signal')).toHaveLength(1);
      // Without an ack the refusal comes on the error channel.
      caller.socket.emit('call signal', good as never, undefined as never);
      expect((await caller.next('error'))[0].code).toBe('VALIDATION_FAILED');
    });

    it('cuts a flood of signals from one socket and relays only what its budget allowed', async () => {
      const { alice, bob, chatId } = await pair();
      const caller = await world.connect(alice);
      const bobs = await world.connect(bob);
      const replies = await Promise.all(
        Array.from({ length: 150 }, (_, i) => ask(caller, signal(chatId, bob, alice, `s${i}`))),
      );
      const accepted = replies.filter((r) => r.ok).length;
      expect(replies.filter((r) => codeOf(r) === 'RATE_LIMITED').length).toBeGreaterThan(0);
      expect(accepted).toBeLessThan(150);
      await expect.poll(() => bobs.all('call signal').length).toBe(accepted);
    });
  });

  describe('ringing through Web Push', () => {
    const pushesFor = (callId: string) =>
      cluster().messageService.pushCallCalls.filter((call) => call.callId === callId);
    /** Another call to someone with no socket: once its push is asked for, earlier ones were decided. */
    const barrier = async (caller: TestClient, chatId: string, from: string, to: string) => {
      const sent = signal(chatId, to, from, 'barrier');
      expect(codeOf(await ask(caller, sent))).toBe('accepted');
      await caller.next('call pushed', (notice) => notice.callId === sent.callId);
    };

    it('asks the message service to push a call to a callee with no socket, once per call, and tells the caller', async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const chatId = await world.direct(alice, bob);
      const caller = await world.connect(alice);
      const offer = signal(chatId, bob, alice, 'offer');
      expect(codeOf(await ask(caller, offer))).toBe('accepted');
      const [notice] = await caller.next('call pushed');
      expect(notice).toEqual({ chatId, to: bob, callId: offer.callId });
      expect(pushesFor(offer.callId)).toEqual([{ from: alice, to: bob, chatId, callId: offer.callId }]);

      // The call's later signals (candidates, a hang-up) are relayed as usual and pushed no more.
      const later = { ...signal(chatId, bob, alice, 'ice'), callId: offer.callId };
      expect(codeOf(await ask(caller, later))).toBe('accepted');
      await barrier(caller, chatId, alice, bob);
      expect(pushesFor(offer.callId)).toHaveLength(1);
      expect(caller.all('call pushed').filter(([n]) => n.callId === offer.callId)).toHaveLength(1);
    });

    it('pushes the first signal of a call that fits in a push when the offer is too large for one', async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const chatId = await world.direct(alice, bob);
      const caller = await world.connect(alice);
      const offer = signal(chatId, bob, alice, 'offer');
      const large = Buffer.alloc(4096, 7).toString('base64');
      expect(codeOf(await ask(caller, { ...offer, signal: { ...offer.signal, ciphertext: large } }))).toBe(
        'accepted',
      );
      const candidate = { ...signal(chatId, bob, alice, 'ice'), callId: offer.callId };
      expect(codeOf(await ask(caller, candidate))).toBe('accepted');
      await caller.next('call pushed', (notice) => notice.callId === offer.callId);
      expect(pushesFor(offer.callId)).toHaveLength(1);
    });

    it('pushes nothing to a callee with a socket anywhere', async () => {
      const [alice, bob, carol] = world.users(3) as [string, string, string];
      const chatId = await world.direct(alice, bob);
      const withCarol = await world.direct(alice, carol);
      const bobs = await world.connect(bob);
      const caller = await world.connect(alice);
      await world.seesOnline(caller, bob);
      const offer = signal(chatId, bob, alice, 'offer');
      expect(codeOf(await ask(caller, offer))).toBe('accepted');
      await bobs.next('call signal');
      await barrier(caller, withCarol, alice, carol);
      expect(pushesFor(offer.callId)).toHaveLength(0);
      expect(caller.all('call pushed').filter(([n]) => n.callId === offer.callId)).toHaveLength(0);
    });

    it('pushes nothing for a signal it refuses: a non-member, someone outside the chat', async () => {
      const [alice, bob, carol, mallory] = world.users(4) as [string, string, string, string];
      const chatId = await world.direct(alice, bob);
      const caller = await world.connect(alice);
      const mal = await world.connect(mallory);
      const toCarol = signal(chatId, carol, alice);
      const fromMallory = signal(chatId, bob, mallory);
      expect(codeOf(await ask(caller, toCarol))).toBe('NOT_A_MEMBER');
      expect(codeOf(await ask(mal, fromMallory))).toBe('CHAT_NOT_FOUND');
      await barrier(caller, chatId, alice, bob);
      expect(pushesFor(toCarol.callId)).toHaveLength(0);
      expect(pushesFor(fromMallory.callId)).toHaveLength(0);
      expect(mal.all('call pushed')).toHaveLength(0);
    });
  });
};
