import { describe, expect, it } from 'vitest';
import { messageViewFromEvent, type MessageSentEvent } from './message-view.ts';

let counter = 0;
const messageSent = (input: {
  chatId: string;
  senderId: string;
  members: string[];
  replyTo?: string;
}): MessageSentEvent => {
  const messageId = `m${counter++}`;
  return {
    type: 'MessageSent',
    streamId: `msg-${messageId}`,
    eventId: `e${messageId}`,
    occurredAt: new Date().toISOString(),
    schemaVersion: 1,
    data: {
      messageId,
      chatId: input.chatId,
      senderId: input.senderId,
      content: 'ciphertext',
      iv: 'iv',
      encryptedKeys: Object.fromEntries(input.members.map((id) => [id, `key-${id}`])),
      replyTo: input.replyTo ?? null,
    },
  };
};

describe('messageViewFromEvent', () => {
  it("builds the API's MessageView from the persisted event", () => {
    const event = messageSent({ chatId: 'c1', senderId: 'alice', members: ['alice', 'bob'] });
    const view = messageViewFromEvent(event, 42, null);
    expect(view).toEqual({
      _id: event.data.messageId,
      chat: 'c1',
      sender: { _id: 'alice' },
      content: event.data.content,
      iv: event.data.iv,
      encryptedKeys: event.data.encryptedKeys,
      replyTo: null,
      seenBy: {},
      createdAt: event.occurredAt,
      seq: 42,
    });
  });

  it('embeds the replied message as given', () => {
    const original = messageViewFromEvent(
      messageSent({ chatId: 'c1', senderId: 'bob', members: ['alice', 'bob'] }),
      1,
      null,
    );
    const reply = messageSent({
      chatId: 'c1',
      senderId: 'alice',
      members: ['alice', 'bob'],
      replyTo: original._id,
    });
    expect(messageViewFromEvent(reply, 2, original).replyTo).toBe(original);
  });
});
