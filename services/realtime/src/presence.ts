import type { MembershipChange } from './membership.map.ts';
import type { MembershipProjection } from './membership.projection.ts';
import type { PresenceStore } from '@veil/ports';
import { userRoom, type RealtimeServer, type RealtimeSocket } from './socket-types.ts';

/**
 * Presence as users see it. A user is online while one of their sockets counts anywhere.
 * Announcements go only to contacts (people who share a chat), one adapter broadcast per
 * transition, so the traffic grows with a user's contacts, never with the whole user base.
 */
export interface Presence {
  /** A socket connected (or said `online` after `set offline`): count it, tell it who is online. */
  socketOnline(socket: RealtimeSocket): Promise<void>;
  /** A socket disconnected or said `set offline`: stop counting it; announce if it was the last. */
  socketOffline(socket: RealtimeSocket): Promise<void>;
  sendOnlineList(socket: RealtimeSocket): Promise<void>;
  /** New chat or new members: introduce the newly related users who are online to each other. */
  membersJoined(change: MembershipChange): Promise<void>;
  /** A user's online state was hidden or shown: their contacts see them go offline or come online. */
  visibilityChanged(userId: string, visible: boolean): Promise<void>;
  start(): Promise<void>;
  /** Waits for in-flight presence work, then stops the store's upkeep. */
  stop(): Promise<void>;
}

export const createPresence = (deps: {
  io: RealtimeServer;
  store: PresenceStore;
  membership: Pick<MembershipProjection, 'contactsOf'>;
  /** Whether a user's contacts may see them online (their privacy switch). */
  visible: (userId: string) => boolean;
}): Presence => {
  const { io, store, membership, visible } = deps;
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

  const sendOnlineList = async (socket: RealtimeSocket) => {
    const online = await store.onlineAmong(membership.contactsOf(socket.data.userId));
    socket.emit('online list', online.filter(visible));
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
          if (await store.disconnect(socket.data.userId)) announce(socket.data.userId, 'offline');
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
          if (!(await store.onlineAmong([userId])).length) return;
          // Every replica sees the same change: each tells only its own sockets.
          const rooms = membership.contactsOf(userId).map(userRoom);
          if (rooms.length) io.local.to(rooms).emit(nowVisible ? 'online' : 'offline', userId);
        })(),
      ),

    start: () =>
      store.start(
        (expired) => {
          for (const userId of expired) announce(userId, 'offline');
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
