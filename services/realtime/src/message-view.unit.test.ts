import { describe, expect, it } from 'vitest';
import { messageViewFromEvent } from './message-view.ts';
import { messageSent } from './testing/events.ts';

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
