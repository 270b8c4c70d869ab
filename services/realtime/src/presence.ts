import type { MembershipChange } from './membership.map.ts';
import type { MembershipProjection } from './membership.projection.ts';
import type { PresenceStore } from '@veil/ports';
import { userRoom, type RealtimeServer, type RealtimeSocket } from './socket-types.ts';

/**
 * Presence as users see it. A user is online while one of their sockets counts anywhere, and
 * was last seen when their last socket went away. Announcements go only to contacts (people who
 * share a chat), one adapter broadcast per transition, so the traffic grows with a user's
 * contacts, never with the whole user base. Last-seen times pass only between two users who both
 * share their online state, as on WhatsApp: who hides their own sees no one's.
 */
export interface Presence {
  /** A socket connected (or said `online` after `set offline`): count it, tell it who is online. */
  socketOnline(socket: RealtimeSocket): Promise<void>;
  /** A socket disconnected or said `set offline`: stop counting it; announce if it was the last. */
  socketOffline(socket: RealtimeSocket): Promise<void>;
  /** The `online list` and, with it, the `last seen list` of the socket's contacts. */
  sendOnlineList(socket: RealtimeSocket): Promise<void>;
  /** New chat or new members: introduce the newly related users who are online to each other. */
  membersJoined(change: MembershipChange): Promise<void>;
  /**
   * A user's online state was hidden or shown: their contacts see them go offline or come online
   * (or forget or learn their last-seen time), and they lose or regain their contacts' times.
   */
  visibilityChanged(userId: string, visible: boolean): Promise<void>;
  start(): Promise<void>;
  /** Waits for in-flight presence work, then stops the store's upkeep. */
  stop(): Promise<void>;
}

const iso = (ms: number) => new Date(ms).toISOString();

export const createPresence = (deps: {
  io: RealtimeServer;
  store: PresenceStore;
  membership: Pick<MembershipProjection, 'contactsOf'>;
  /** Whether a user's contacts may see them online (their privacy switch). */
  visible: (userId: string) => boolean;
  /** The server's clock (ms): the moment a user's last socket goes is their last-seen time. */
  now: () => number;
}): Presence => {
  const { io, store, membership, visible, now } = deps;
  const inFlight = new Set<Promise<unknown>>();

  /** Presence work is fire-and-forget from socket events, but stop() must wait for it. */
  const track = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };

  const announce = (userId: string, event: 'online' | 'offline') => {
    if (!visible(userId)) return;
    const contacts = membership.contactsOf(userId);
    if (contacts.length > 0) io.to(contacts.map(userRoom)).emit(event, userId);
  };

  /** The contacts who may see others' last-seen times: those who share their own online state. */
  const viewersOf = (userId: string) => membership.contactsOf(userId).filter(visible);

  const wentOffline = (userId: string, at: number) => {
    announce(userId, 'offline');
    if (!visible(userId)) return;
    const viewers = viewersOf(userId);
    if (viewers.length > 0) io.to(viewers.map(userRoom)).emit('last seen', { userId, at: iso(at) });
  };

  /** What `viewerId` may know of `contacts`' last-seen times: nothing while they hide their own. */
  const lastSeenList = async (viewerId: string, contacts: string[], online: ReadonlySet<string>) => {
    if (!visible(viewerId)) return [];
    const times = await store.lastSeenAmong(contacts.filter((id) => visible(id) && !online.has(id)));
    return [...times].map(([userId, at]) => ({ userId, at: iso(at) }));
  };

  const sendOnlineList = async (socket: RealtimeSocket) => {
    const contacts = membership.contactsOf(socket.data.userId);
    const online = await store.onlineAmong(contacts);
    const lastSeen = await lastSeenList(socket.data.userId, contacts, new Set(online));
    // The times first: a client that shows the online list has the times it goes with.
    socket.emit('last seen list', lastSeen);
    socket.emit('online list', online.filter(visible));
  };

  /** After a switch: the user's own sockets (on this replica) get what they may now see. */
  const resendLastSeenList = async (userId: string) => {
    const contacts = membership.contactsOf(userId);
    const online = new Set(await store.onlineAmong(contacts));
    io.local.to(userRoom(userId)).emit('last seen list', await lastSeenList(userId, contacts, online));
  };

  return {
    sendOnlineList: (socket) => track(sendOnlineList(socket)),

    socketOnline: (socket) =>
      track(
        (async () => {
          if (!socket.data.present) {
            socket.data.present = true; // set before awaiting, so a quick disconnect counts it down
            if (await store.connect(socket.data.userId)) announce(socket.data.userId, 'online');
          }
          if (socket.connected) await sendOnlineList(socket);
        })(),
      ),

    socketOffline: (socket) =>
      track(
        (async () => {
          if (!socket.data.present) return;
          socket.data.present = false;
          const at = now();
          if (await store.disconnect(socket.data.userId, at)) wentOffline(socket.data.userId, at);
        })(),
      ),

    membersJoined: (change) =>
      track(
        (async () => {
          const everyone = [...change.previous, ...change.added];
          const online = new Set((await store.onlineAmong(everyone)).filter(visible));
          // Every replica runs this for the same change, so each tells only its own sockets.
          for (const userId of change.added) {
            if (!online.has(userId)) continue;
            const others = everyone.filter((id) => id !== userId).map(userRoom);
            if (others.length > 0) io.local.to(others).emit('online', userId);
          }
          const addedRooms = change.added.map(userRoom);
          for (const userId of change.previous) {
            if (online.has(userId)) io.local.to(addedRooms).emit('online', userId);
          }
        })(),
      ),

    visibilityChanged: (userId, nowVisible) =>
      track(
        (async () => {
          // Every replica sees the same change: each tells only its own sockets.
          const online = (await store.onlineAmong([userId])).length > 0;
          const rooms = membership.contactsOf(userId).map(userRoom);
          if (online && rooms.length) io.local.to(rooms).emit(nowVisible ? 'online' : 'offline', userId);
          if (!nowVisible) {
            if (rooms.length) io.local.to(rooms).emit('last seen', { userId, at: null });
          } else if (!online) {
            const at = (await store.lastSeenAmong([userId])).get(userId);
            const viewers = viewersOf(userId).map(userRoom);
            if (at !== undefined && viewers.length)
              io.local.to(viewers).emit('last seen', { userId, at: iso(at) });
          }
          await resendLastSeenList(userId);
        })(),
      ),

    start: () =>
      store.start(
        (expired, at) => {
          for (const userId of expired) wentOffline(userId, at);
        },
        (revived) => {
          for (const userId of revived) announce(userId, 'online');
        },
      ),

    async stop() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
      await store.stop();
    },
  };
};
