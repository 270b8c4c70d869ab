import type { MessageView } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { messageDeleted, messageEdited, messageExpired } from './events.ts';
import type { RealtimeCluster } from './harness.ts';
import type { World } from './suite-world.ts';

/**
 * The message a reply quotes, built from the log each replica follows: no call to the message
 * service for a message the replica saw sent.
 */
export const describeQuotes = (world: World, cluster: () => RealtimeCluster) => {
  /** Alice and Bob in a direct chat, on different replicas when there are several. */
  const pair = async () => {
    const [alice, bob] = world.users(2) as [string, string];
    const chat = await world.direct(alice, bob);
    const a = await world.connect(alice);
    const b = await world.connect(bob);
    return { alice, bob, chat, members: [alice, bob], a, b };
  };

  /** The quote of Alice's reply to `messageId`, as Bob receives it. */
  const quoteIn = async (
    { chat, alice, members, b }: Awaited<ReturnType<typeof pair>>,
    messageId: string,
  ): Promise<MessageView | null> => {
    const reply = await world.send(chat, alice, members, messageId);
    const [{ message }] = await b.next('message received', (p) => p.message._id === reply.messageId);
    return message.replyTo;
  };

  /**
   * Waits until both clients' replicas have fanned out everything appended so far: a last message
   * from Alice reaches Bob's socket and her own other one.
   */
  const settled = async ({ chat, alice, members, a, b }: Awaited<ReturnType<typeof pair>>) => {
    const barrier = await world.send(chat, alice, members);
    const isBarrier = (p: { message: { _id: string } }) => p.message._id === barrier.messageId;
    await Promise.all([b.next('message received', isBarrier), a.next('message sent', isBarrier)]);
  };

  describe('quotes', () => {
    it('quotes a message sent since the replica started from the log, without asking the message service', async () => {
      const chat = await pair();
      const calls = cluster().messageService.getMessageCalls();
      const original = await world.send(chat.chat, chat.bob, chat.members);
      expect(await quoteIn(chat, original.messageId)).toEqual({
        _id: original.messageId,
        chat: chat.chat,
        sender: { _id: chat.bob },
        content: original.event.data.content,
        iv: original.event.data.iv,
        encryptedKeys: original.event.data.encryptedKeys,
        replyTo: null,
        seenBy: {},
        createdAt: original.event.occurredAt,
        seq: original.position,
      });
      await settled(chat);
      expect(cluster().messageService.getMessageCalls()).toBe(calls);
    });

    it('quotes the edited text after an edit', async () => {
      const chat = await pair();
      const calls = cluster().messageService.getMessageCalls();
      const original = await world.send(chat.chat, chat.bob, chat.members);
      const edit = messageEdited(original.event, 'edited ciphertext');
      await world.append(edit);
      expect(await quoteIn(chat, original.messageId)).toMatchObject({
        _id: original.messageId,
        content: edit.data.content,
        iv: 'BBBBBBBBBBBBBBBB',
        editedAt: edit.occurredAt,
        seq: original.position,
      });
      await settled(chat);
      expect(cluster().messageService.getMessageCalls()).toBe(calls);
    });

    it('quotes a deleted message as its tombstone and an expired one as nothing, as the message service answers', async () => {
      const chat = await pair();
      const calls = cluster().messageService.getMessageCalls();
      const deleted = await world.send(chat.chat, chat.bob, chat.members);
      const expired = await world.send(chat.chat, chat.bob, chat.members);
      await world.append(messageEdited(deleted.event, 'edited before the deletion'));
      await world.append(messageDeleted(deleted.event, deleted.position));
      await world.append(messageExpired(expired.event));
      expect(await quoteIn(chat, deleted.messageId)).toEqual({
        _id: deleted.messageId,
        chat: chat.chat,
        sender: { _id: chat.bob },
        content: '',
        iv: '',
        encryptedKeys: {},
        replyTo: null,
        seenBy: {},
        createdAt: deleted.event.occurredAt,
        seq: deleted.position,
        deleted: true,
      });
      expect(await quoteIn(chat, expired.messageId)).toBeNull();
      await settled(chat);
      expect(cluster().messageService.getMessageCalls()).toBe(calls);
    });
  });
};
