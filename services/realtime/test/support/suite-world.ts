import type { ChatEvent, MessageEvent, UserEvent } from '@veil/contracts';
import { ulid } from 'ulid';
import { signToken, testOrigin, type RealtimeCluster } from './harness.ts';
import { directChatCreated, groupChatCreated, messageSent } from './events.ts';
import { connectClient, type TestClient } from './test-clients.ts';

/**
 * Per-test helpers for the shared suite: fresh user and chat ids (so tests never see each other's
 * traffic on a shared bus), real events appended to the bus, real clients spread over the nodes.
 */
export const createWorld = (cluster: () => RealtimeCluster) => {
  const clients: TestClient[] = [];
  let spread = 0;

  const world = {
    users: (count: number) => Array.from({ length: count }, () => ulid()),

    async appendChat(event: ChatEvent) {
      return cluster().bus.append('chat', event);
    },
    async direct(a: string, b: string) {
      const chatId = ulid();
      await world.appendChat(directChatCreated(chatId, a, b));
      return chatId;
    },
    async group(members: string[]) {
      const chatId = ulid();
      await world.appendChat(groupChatCreated(chatId, members));
      return chatId;
    },

    /** An event of the user log, as the user service appends it (a privacy switch). */
    async appendUser(event: UserEvent) {
      return cluster().bus.append('user', event);
    },

    async append(event: MessageEvent) {
      return cluster().bus.append('message', event);
    },
    /** Appends a MessageSent as the message service would; returns its id and log position. */
    async send(chatId: string, senderId: string, members: string[], replyTo: string | null = null) {
      const event = messageSent({ chatId, senderId, members, replyTo });
      const { position } = await world.append(event);
      return { messageId: event.data.messageId, position, event };
    },

    /** A connected client; `node` picks the replica, by default the next one round-robin. */
    async connect(userId: string, node?: number) {
      const { nodes, keys } = cluster();
      const url = nodes[(node ?? spread++) % nodes.length]!;
      const client = await connectClient(url, userId, {
        token: await signToken(keys, userId),
        origin: testOrigin,
      });
      clients.push(client);
      return client;
    },

    /** The client knows `userId` is online: from an `online list` or an `online` announcement. */
    async seesOnline(client: TestClient, userId: string) {
      await Promise.any([
        client.next('online list', (ids) => ids.includes(userId)),
        client.next('online', (id) => id === userId),
      ]);
    },

    closeAll() {
      for (const client of clients.splice(0)) client.close();
      spread = 0;
    },
  };
  return world;
};

export type World = ReturnType<typeof createWorld>;

/** Ids of every `message received` a client got, in arrival order. */
export const receivedIds = (client: TestClient): string[] =>
  client.all('message received').map(([p]) => p.message._id);
