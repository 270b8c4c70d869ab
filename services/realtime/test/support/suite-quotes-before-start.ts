import { ulid } from 'ulid';
import { describe, expect, it } from 'vitest';
import { directChatCreated, messageSent } from './events.ts';
import { startFakeMessageService } from './fake-message-service.ts';
import { linkTtlSeconds, newTokenKeys, signToken, startRealtimeNode, testOrigin } from './harness.ts';
import { receivedIds } from './suite-world.ts';
import { connectClient } from './test-clients.ts';
import type { TestBusPorts } from './test-adapters.ts';
import { testLogger } from './test-logger.ts';

/**
 * A reply quoting a message sent before the replica started following the log: the quote is
 * asked of the message service, once per reply, and a failed lookup is retried.
 */
export const describeQuotesFromBeforeStart = (
  name: string,
  openPorts: (log: ReturnType<typeof testLogger>) => Promise<TestBusPorts>,
) =>
  describe(name, () => {
    it('asks the message service once per reply, and retries a reply whose lookup failed', async () => {
      const log = testLogger();
      const { bus, rpc, close } = await openPorts(log);
      const messageService = await startFakeMessageService(bus, rpc);
      const closers: (() => Promise<void>)[] = [close, () => messageService.stop()];
      try {
        const [alice, bob, chatId] = [ulid(), ulid(), ulid()];
        const members = [alice, bob];
        await bus.append('chat', directChatCreated(chatId, alice, bob));
        const original = messageSent({ chatId, senderId: bob, members });
        const { position } = await bus.append('message', original);

        const keys = await newTokenKeys();
        const node = await startRealtimeNode({
          bus,
          rpc,
          log,
          settings: {
            allowedOrigins: [testOrigin],
            accessTokenPublicJwk: keys.publicJwk,
            instanceId: 'late',
            linkTtlSeconds,
          },
        });
        closers.push(() => node.stop());
        const b = await connectClient(node.url, bob, {
          token: await signToken(keys, bob),
          origin: testOrigin,
        });
        closers.push(async () => b.close());

        const reply = messageSent({ chatId, senderId: alice, members, replyTo: original.data.messageId });
        await bus.append('message', reply);
        const [{ message }] = await b.next('message received', (p) => p.message._id === reply.data.messageId);
        expect(message.replyTo).toEqual({
          _id: original.data.messageId,
          chat: chatId,
          sender: { _id: bob },
          content: original.data.content,
          iv: original.data.iv,
          encryptedKeys: original.data.encryptedKeys,
          replyTo: null,
          seenBy: {},
          createdAt: original.occurredAt,
          seq: position,
        });
        expect(messageService.getMessageCalls()).toBe(1);

        // Not kept: the next reply asks again; this time the first lookup fails and is retried.
        messageService.failNextGetMessage();
        const again = messageSent({ chatId, senderId: alice, members, replyTo: original.data.messageId });
        await bus.append('message', again);
        const [retried] = await b.next('message received', (p) => p.message._id === again.data.messageId);
        expect(retried.message.replyTo).toEqual(message.replyTo);
        expect(messageService.getMessageCalls()).toBe(3);
        expect(receivedIds(b)).toEqual([reply.data.messageId, again.data.messageId]);
      } finally {
        for (const closer of closers.reverse()) await closer();
      }
    });
  });
