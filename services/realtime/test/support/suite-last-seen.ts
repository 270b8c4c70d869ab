import { describe, expect, it } from 'vitest';
import { privacyChanged } from './events.ts';
import type { TestClient } from './test-clients.ts';
import type { World } from './suite-world.ts';

/** Every `last seen` a client got about `userId`, oldest first. */
const lastSeenOf = (client: TestClient, userId: string) =>
  client
    .all('last seen')
    .map(([notice]) => notice)
    .filter((notice) => notice.userId === userId);

/** The entries of the newest `last seen list` a client got. */
const newestList = (client: TestClient) => client.all('last seen list').at(-1)?.[0] ?? [];

/** A further `last seen list` (or `online list`) than the `seen` ones already received. */
const nextList = (client: TestClient, event: 'last seen list' | 'online list', seen: number) =>
  client.next(event, () => client.all(event).length > seen);

/**
 * Last seen: when a contact's last socket went away, passed only between contacts who both share
 * their online state. Departures go through `set offline` or a closed socket alike.
 */
export const describeLastSeen = (world: World) => {
  describe('last seen', () => {
    it('reaches contacts with the time of the last socket going away, never strangers, and comes with the next online list', async () => {
      const [dave, erin, frank] = world.users(3) as [string, string, string];
      await world.direct(dave, erin);
      const e = await world.connect(erin, 0);
      const f = await world.connect(frank, 1);
      const d1 = await world.connect(dave, 1);
      const d2 = await world.connect(dave, 0);
      await world.seesOnline(e, dave);

      const before = Date.now();
      d1.close();
      await d1.disconnected;
      d2.close();
      const [notice] = await e.next('last seen', (n) => n.userId === dave);
      const after = Date.now();
      expect(notice.at).not.toBeNull();
      const at = Date.parse(notice.at!);
      expect(at).toBeGreaterThanOrEqual(before);
      expect(at).toBeLessThanOrEqual(after);
      expect(e.all('offline')).toEqual([[dave]]);
      expect(lastSeenOf(e, dave)).toHaveLength(1); // one departure for two sockets

      // A later connection learns it from the list that comes with its online list.
      const e2 = await world.connect(erin, 1);
      await e2.next('last seen list', (list) => list.some((entry) => entry.userId === dave));
      expect(newestList(e2)).toEqual([{ userId: dave, at: notice.at }]);
      // A user who shares no chat with dave hears nothing of him, live or in a list.
      const f2 = await world.connect(frank, 0);
      await f2.next('last seen list');
      expect([...f.all('last seen'), ...f2.all('last seen')]).toEqual([]);
      expect([...f.all('last seen list'), ...f2.all('last seen list')].flat(2)).toEqual([]);
    });

    it('is never sent of someone who hides their online state, and shows again when they share it', async () => {
      const [dave, erin, frank] = world.users(3) as [string, string, string];
      await world.direct(dave, erin);
      await world.direct(frank, erin);
      const e = await world.connect(erin, 0);
      const d = await world.connect(dave, 1);
      const f = await world.connect(frank, 1);
      await world.seesOnline(e, dave);
      await world.seesOnline(e, frank);
      await d.next('last seen list');

      await world.appendUser(privacyChanged(dave, 'nobody'));
      // Erin's replica hides him at once; dave's own replica has applied it once he is told.
      await e.next('offline', (id) => id === dave);
      await e.next('last seen', (n) => n.userId === dave && n.at === null);
      await nextList(d, 'last seen list', 1);

      const before = Date.now();
      const lists = d.all('online list').length;
      d.socket.emit('set offline', dave);
      // `setup` is handled after `set offline` on the same socket: once its answer is back,
      // dave's departure has been handled, so what frank's causes next comes after it.
      d.socket.emit('setup', { _id: dave });
      await nextList(d, 'online list', lists);
      f.socket.emit('set offline', frank);
      await e.next('last seen', (n) => n.userId === frank && n.at !== null);
      expect(lastSeenOf(e, dave)).toEqual([{ userId: dave, at: null }]);
      const e2 = await world.connect(erin, 1);
      await e2.next('last seen list', (list) => list.some((entry) => entry.userId === frank));
      expect(newestList(e2).map((entry) => entry.userId)).toEqual([frank]);

      // Shared again while he is away: his contacts learn when his last socket went.
      await world.appendUser(privacyChanged(dave, 'contacts'));
      const [shown] = await e.next('last seen', (n) => n.userId === dave && n.at !== null);
      expect(Date.parse(shown.at!)).toBeGreaterThanOrEqual(before);
    });

    it('is never sent to someone who hides their own online state, and reaches them when they share it again', async () => {
      const [dave, erin, gina] = world.users(3) as [string, string, string];
      await world.direct(dave, erin);
      await world.direct(dave, gina);
      const e = await world.connect(erin, 0);
      const g = await world.connect(gina, 0);
      const d = await world.connect(dave, 1);
      await world.seesOnline(d, erin);
      await e.next('last seen list');

      await world.appendUser(privacyChanged(erin, 'nobody'));
      // Dave's replica has applied it once he sees her go; hers once her list is emptied.
      await d.next('offline', (id) => id === erin);
      await nextList(e, 'last seen list', 1);
      expect(newestList(e)).toEqual([]);

      d.socket.emit('set offline', dave);
      const [toGina] = await g.next('last seen', (n) => n.userId === dave);
      // Nor does a new connection of hers get his time with its online list.
      const e2 = await world.connect(erin, 1);
      expect((await e2.next('last seen list'))[0]).toEqual([]);
      await e.next('offline', (id) => id === dave); // she still sees him come and go
      d.socket.emit('online');
      // Erin's socket gets the replica's packets in order: what came before this came already.
      await e.next('online', (id) => id === dave);
      expect(lastSeenOf(e, dave)).toEqual([]);

      // Dave away again; erin shares her state again and gets his time at once.
      const gotByGina = lastSeenOf(g, dave).length;
      d.socket.emit('set offline', dave);
      await g.next('last seen', () => lastSeenOf(g, dave).length > gotByGina);
      const latest = lastSeenOf(g, dave).at(-1)!;
      expect(Date.parse(latest.at!)).toBeGreaterThanOrEqual(Date.parse(toGina.at!));
      const erinLists = e.all('last seen list').length;
      await world.appendUser(privacyChanged(erin, 'contacts'));
      await nextList(e, 'last seen list', erinLists);
      expect(newestList(e)).toEqual([latest]);
    });
  });
};
