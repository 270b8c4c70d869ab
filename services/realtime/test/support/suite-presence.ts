import { describe, expect, it } from 'vitest';
import { chatMembersAdded } from './events.ts';
import type { RealtimeCluster } from './harness.ts';
import type { TestClient } from './test-clients.ts';
import { receivedIds, type World } from './suite-world.ts';

const onlineCount = (client: TestClient, userId: string) =>
  client.all('online').filter(([id]) => id === userId).length;

/** Typing, presence among contacts, and live membership changes. */
export const describePresence = (world: World, _cluster: () => RealtimeCluster) => {
  describe('typing', () => {
    it('reaches the other party of a direct chat and the other members of a group', async () => {
      const [alice, bob, carol] = world.users(3) as [string, string, string];
      const direct = await world.direct(alice, bob);
      const group = await world.group([alice, bob, carol]);
      const a = await world.connect(alice);
      const b = await world.connect(bob);
      const c = await world.connect(carol);

      a.socket.emit('typing', bob); // the older shape: the other user's id
      expect((await b.next('typing'))[0]).toEqual({ chatId: direct, userId: alice });
      a.socket.emit('stop typing', { to: bob });
      expect((await b.next('stop typing'))[0]).toEqual({ chatId: direct, userId: alice });

      c.socket.emit('typing', { chatId: group });
      for (const other of [a, b]) {
        expect((await other.next('typing', (n) => n.chatId === group))[0]).toEqual({
          chatId: group,
          userId: carol,
        });
      }
      c.socket.emit('stop typing', group);
      await a.next('stop typing', (n) => n.chatId === group && n.userId === carol);
      // Carol is not in the direct chat: refused, and her own typing never echoes back to her.
      c.socket.emit('typing', direct);
      expect((await c.next('error'))[0].code).toBe('NOT_A_MEMBER');
      expect(c.all('typing')).toEqual([]);
    });

    it('works for a chat created a moment ago (the lookup waits for the chat log)', async () => {
      const [alice, bob] = world.users(2) as [string, string];
      const a = await world.connect(alice);
      const b = await world.connect(bob);
      const group = await world.group([alice, bob]);
      a.socket.emit('typing', { chatId: group });
      expect((await b.next('typing'))[0]).toEqual({ chatId: group, userId: alice });
    });
  });

  describe('presence', () => {
    it('shows contacts online and announces the last socket going offline, to contacts only', async () => {
      const [dave, erin, frank] = world.users(3) as [string, string, string];
      await world.direct(dave, erin);
      const e = await world.connect(erin, 0);
      const f = await world.connect(frank, 1);
      const d1 = await world.connect(dave, 1);
      await world.seesOnline(e, dave);
      await world.seesOnline(d1, erin);
      const d2 = await world.connect(dave, 0);
      expect((await d2.next('online list'))[0]).toContain(erin);

      d1.close();
      await d1.disconnected;
      d2.close();
      expect((await e.next('offline'))[0]).toBe(dave);
      // One announcement for two sockets; a user who shares no chat hears nothing.
      const onlineBefore = onlineCount(e, dave);
      await world.seesOnline(await world.connect(dave, 1), erin);
      await e.next('online', () => onlineCount(e, dave) > onlineBefore);
      expect(e.all('offline')).toEqual([[dave]]);
      expect([...f.all('online'), ...f.all('offline'), ...f.all('online list').flat(2)]).toEqual([]);
    });

    it('`set offline` takes only the own id; `online` comes back', async () => {
      const [dave, erin] = world.users(2) as [string, string];
      await world.direct(dave, erin);
      const e = await world.connect(erin);
      const d = await world.connect(dave);
      await world.seesOnline(e, dave);

      d.socket.emit('set offline', erin);
      expect((await d.next('error'))[0].code).toBe('FORBIDDEN');
      d.socket.emit('set offline', dave);
      expect((await e.next('offline'))[0]).toBe(dave);
      expect(e.all('offline')).toEqual([[dave]]); // the forged one changed nothing
      const onlineBefore = onlineCount(e, dave);
      d.socket.emit('online');
      await e.next('online', () => onlineCount(e, dave) > onlineBefore);
    });

    it('`setup` with another id is refused; with the own id it answers with the online list', async () => {
      const [dave, erin] = world.users(2) as [string, string];
      await world.direct(dave, erin);
      await world.connect(erin);
      const d = await world.connect(dave);
      d.socket.emit('setup', { _id: erin });
      expect((await d.next('error'))[0].code).toBe('FORBIDDEN');
      const lists = d.all('online list').length;
      d.socket.emit('setup', { _id: dave });
      await world.seesOnline(d, erin);
      await d.next('online list', () => d.all('online list').length > lists);
    });
  });

  describe('membership changes', () => {
    it('members added to a group meet its online members and get its messages at once', async () => {
      const [alice, bob, carol] = world.users(3) as [string, string, string];
      const group = await world.group([alice, bob]);
      const a = await world.connect(alice);
      const c = await world.connect(carol);
      // Both have settled in as strangers before carol joins.
      expect((await c.next('online list'))[0]).toEqual([]);
      await a.next('online list');
      await world.appendChat(chatMembersAdded(group, [carol], alice));
      await world.seesOnline(c, alice);
      await world.seesOnline(a, carol);
      const message = await world.send(group, alice, [alice, bob, carol]);
      await c.next('message received', (p) => p.message._id === message.messageId);
      expect(receivedIds(c)).toEqual([message.messageId]);
    });
  });
};
