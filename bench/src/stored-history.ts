import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startVeil } from '@veil/app';
import { meta, writeLog } from './log-file.ts';

/**
 * A stored history, written in bulk as the JSON-lines logs of earlier versions (a first start
 * imports them and builds every read model from them): 20 users in ten one-to-one chats and
 * `messageEvents` messages spread over the chats in turn, mostly messages as real traffic is.
 */
export const writeHistory = async (eventsDir: string, messageEvents: number) => {
  const users = Array.from({ length: 20 }, (_, i) => `U${String(i).padStart(25, '0')}`);
  const chats = Array.from({ length: 10 }, (_, i) => ({
    id: `C${String(i).padStart(25, '0')}`,
    members: [users[i * 2]!, users[i * 2 + 1]!],
  }));
  const content = Buffer.alloc(96, 7).toString('base64');
  const key = Buffer.alloc(256, 9).toString('base64');

  const userEvents = await writeLog(
    path.join(eventsDir, 'user.jsonl'),
    users.map((userId, i) => ({
      ...meta('UserRegistered', `user-${userId}`, i),
      data: { userId, username: `user${i}`, publicKey: 'AAAA', pictureKey: null },
    })),
  );
  const chatEvents = await writeLog(
    path.join(eventsDir, 'chat.jsonl'),
    chats.map((chat, i) => ({
      ...meta('DirectChatCreated', `chat-${chat.id}`, i),
      data: { chatId: chat.id, members: chat.members, createdBy: chat.members[0] },
    })),
  );
  const messages = function* () {
    for (let i = 0; i < messageEvents; i++) {
      const chat = chats[i % chats.length]!;
      const messageId = `M${String(i).padStart(25, '0')}`;
      yield {
        ...meta('MessageSent', `msg-${messageId}`, i),
        data: {
          messageId,
          chatId: chat.id,
          senderId: chat.members[i % 2]!,
          content,
          iv: 'AAAAAAAAAAAAAAAA',
          encryptedKeys: { [chat.members[0]!]: key, [chat.members[1]!]: key },
          replyTo: null,
        },
      };
    }
  };
  const messageCount = await writeLog(path.join(eventsDir, 'message.jsonl'), messages());
  return { users, chats, userEvents, chatEvents, messageCount };
};

/**
 * A data directory holding a stored history with its read models built (a first start, in this
 * process, as the replay bench times it), for a server started on it afterwards.
 */
export const prepareHistory = async (messageEvents: number) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-history-'));
  const eventsDir = path.join(dataDir, 'events');
  await mkdir(eventsDir, { recursive: true });
  await writeHistory(eventsDir, messageEvents);
  const built = await startVeil({ dataDir, services: ['user', 'auth', 'chat', 'message'] });
  await built.stop();
  return { dataDir, remove: () => rm(dataDir, { recursive: true, force: true }) };
};
