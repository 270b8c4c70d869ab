import type { MessageEvent } from '@veil/contracts';
import type { Socket } from 'socket.io-client';
import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { messageSent } from './events.ts';
import type { RealtimeCluster } from './harness.ts';
import { receivedIds, type World } from './suite-world.ts';

/** Delivery of persisted messages, read receipts, and the refusal to relay client content. */
export const describeDelivery = (world: World, cluster: () => RealtimeCluster) => {
  describe('delivery', () => {
    it('delivers each persisted message once to every other participant, on any replica', async () => {
      const [alice, bob, carol] = world.users(3) as [string, string, string];
      const direct = await world.direct(alice, bob);
      const group = await world.group([alice, bob, carol]);
      const a = await world.connect(alice);
      const b = await world.connect(bob);
      const c = await world.connect(carol);

      const m1 = await world.send(direct, alice, [alice, bob]);
      const m2 = await world.send(direct, bob, [alice, bob]);
      const m3 = await world.send(group, carol, [alice, bob, carol]);
      const m4 = await world.send(group, alice, [alice, bob, carol], m3.messageId);
      // Barrier: a last message to each recipient; everything before it has been fanned out.
      const m5 = await world.send(group, alice, [alice, bob, carol]);
      const m6 = await world.send(direct, bob, [alice, bob]);
      await Promise.all([
        b.next('message received', (p) => p.message._id === m5.messageId),
        c.next('message received', (p) => p.message._id === m5.messageId),
        a.next('message received', (p) => p.message._id === m6.messageId),
      ]);
      for (const id of [m1, m3, m4, m5].map((m) => m.messageId)) {
        await b.next('message received', (p) => p.message._id === id);
      }
      for (const id of [m2, m3, m6].map((m) => m.messageId)) {
        await a.next('message received', (p) => p.message._id === id);
      }
      await c.next('message received', (p) => p.message._id === m4.messageId);

      // Exactly once each, and never one's own message or another chat's.
      expect(receivedIds(b).sort()).toEqual([m1, m3, m4, m5].map((m) => m.messageId).sort());
      expect(receivedIds(a).sort()).toEqual([m2, m3, m6].map((m) => m.messageId).sort());
      expect(receivedIds(c).sort()).toEqual([m4, m5].map((m) => m.messageId).sort());

      // The API's MessageView, with the replied message in full.
      const [{ message }] = await c.next('message received', (p) => p.message._id === m4.messageId);
      expect(message).toEqual({
        _id: m4.messageId,
        chat: group,
        sender: { _id: alice },
        content: m4.event.data.content,
        iv: m4.event.data.iv,
        encryptedKeys: m4.event.data.encryptedKeys,
        replyTo: expect.objectContaining({
          _id: m3.messageId,
          chat: group,
          sender: { _id: carol },
          seq: m3.position,
        }),
        seenBy: {},
        createdAt: m4.event.occurredAt,
        seq: m4.position,
      });
    });

    it('skips a message event of a type it does not know and delivers what follows', async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const direct = await world.direct(alice, bob);
      const b = await world.connect(bob);
      // A newer writer's event type, even one named like an Object.prototype member.
      const { data, ...envelope } = messageSent({ chatId: direct, senderId: alice, members: [alice, bob] });
      for (const type of ['MessageEdited', '__proto__']) {
        await world.append({ ...envelope, eventId: ulid(), type, data } as unknown as MessageEvent);
      }
      const after = await world.send(direct, alice, [alice, bob]);
      await b.next('message received', (p) => p.message._id === after.messageId);
      expect(receivedIds(b)).toEqual([after.messageId]);
    });

    it("never relays a client's `new message`; only persisted messages arrive", async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const direct = await world.direct(alice, bob);
      const a = await world.connect(alice);
      const b = await world.connect(bob);
      // The contract gives `new message` no ack; an old client may still pass one.
      const untyped = a.socket as unknown as Socket;
      const reply: unknown = await untyped
        .timeout(10_000)
        .emitWithAck('new message', { content: 'aW5qZWN0ZWQ=', chat: direct, sender: alice });
      expect(reply).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
      const persisted = await world.send(direct, alice, [alice, bob]);
      await b.next('message received', (p) => p.message._id === persisted.messageId);
      expect(receivedIds(b)).toEqual([persisted.messageId]);
    });
  });

  describe('read receipts', () => {
    it("`message seen` marks for the token's user and tells the chat's participants", async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const direct = await world.direct(alice, bob);
      const a = await world.connect(alice);
      const b = await world.connect(bob);
      const m1 = await world.send(direct, alice, [alice, bob]);
      const m2 = await world.send(direct, alice, [alice, bob]);
      await b.next('message received', (p) => p.message._id === m2.messageId);

      const reports = [m1, m2].map((m) => ({ chatId: direct, messageId: m.messageId, userId: bob }));
      const ack = await b.socket.timeout(10_000).emitWithAck('message seen', reports);
      expect(ack).toEqual({
        ok: true,
        data: { marked: reports.map(({ chatId, messageId }) => ({ chatId, messageId })) },
      });
      for (const client of [a, b]) {
        for (const m of [m1, m2]) {
          const [update] = await client.next('update seen', (u) => u.messageId === m.messageId);
          expect(update).toEqual({ chatId: direct, messageId: m.messageId, userId: bob });
        }
      }
    });

    it('refuses a report naming another user, and bad input, without changing anything', async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const direct = await world.direct(alice, bob);
      const b = await world.connect(bob);
      const m1 = await world.send(direct, alice, [alice, bob]);
      const calls = cluster().messageService.markSeenCalls.length;

      const forged = await b.socket
        .timeout(10_000)
        .emitWithAck('message seen', { chatId: direct, messageId: m1.messageId, userId: alice });
      expect(forged).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
      b.socket.emit('message seen', { chatId: 'not an id!', messageId: m1.messageId });
      const [error] = await b.next('error', (e) => e.code === 'VALIDATION_FAILED');
      expect(error.message).toMatch(/chatId, messageId/);
      expect(cluster().messageService.markSeenCalls.length).toBe(calls);
    });
  });
};
