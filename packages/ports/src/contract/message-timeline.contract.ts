import { describe, expect, it } from 'vitest';
import { messageStreamId, type MessageEvent } from '@veil/contracts';
import type { MessageTimeline, TimelineMessage } from '../message-timeline.port.ts';
import { withFixture } from './fixture.ts';

/**
 * A fresh timeline for one test: `record` appends a message event to the log and returns its
 * position once the timeline has it, the way the message service keeps it (its projection
 * applies the event: the read model's documents, and the erasure of a deleted or expired
 * message's content from the log, which the log's indexes then no longer find).
 */
export interface MessageTimelineUnderTest {
  timeline: MessageTimeline;
  record(event: MessageEvent): Promise<number>;
  teardown(): Promise<void>;
}

type Data<T extends MessageEvent['type']> = Extract<MessageEvent, { type: T }>['data'];

const base = Date.parse('2030-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(base + seconds * 1000).toISOString();
let serial = 0;

/** A message event as the service appends it, on the message's own stream, at a given time. */
const event = <T extends MessageEvent['type']>(type: T, data: Data<T>, occurredAt = at(0)) =>
  ({
    type,
    data,
    eventId: `timeline-contract-${Date.now()}-${serial++}`,
    streamId: messageStreamId(data.messageId),
    occurredAt,
    schemaVersion: 1,
  }) as unknown as MessageEvent;

const keysOf = (...members: string[]) => Object.fromEntries(members.map((id) => [id, `key-for-${id}`]));

/** The contract's side of a test: ids unique to it, and the events of a small conversation. */
const conversation = (fixture: MessageTimelineUnderTest) => {
  const run = `${Date.now().toString(36)}${(serial++).toString(36)}`;
  const id = (name: string) => `${name}-${run}`;
  const send = async (
    name: string,
    options: {
      chat?: string;
      sender?: string;
      at?: number;
      clientMessageId?: string;
      expiresAt?: string;
      replyTo?: string;
      attachments?: string[];
    } = {},
  ) => {
    const sender = options.sender ?? 'alice';
    const data: Data<'MessageSent'> = {
      messageId: id(name),
      chatId: id(options.chat ?? 'chat'),
      senderId: sender,
      content: `ciphertext of ${name}`,
      iv: 'iv-of-the-message',
      encryptedKeys: keysOf('alice', 'bob', 'carol'),
      replyTo: options.replyTo ? id(options.replyTo) : null,
      ...(options.clientMessageId && { clientMessageId: options.clientMessageId }),
      ...(options.expiresAt && { expiresAt: options.expiresAt }),
      ...(options.attachments && { attachments: options.attachments.map(id) }),
    };
    const position = await fixture.record(event('MessageSent', data, at(options.at ?? 0)));
    return { id: data.messageId, chat: data.chatId, seq: position, data };
  };
  const on = (message: { id: string; chat: string }) => ({ messageId: message.id, chatId: message.chat });
  const deleteIt = async (
    message: Awaited<ReturnType<typeof send>>,
    extra: Partial<Data<'MessageDeleted'>> = {},
  ) =>
    fixture.record(
      event('MessageDeleted', {
        ...on(message),
        senderId: message.data.senderId,
        deletedBy: message.data.senderId,
        sentAt: at(0),
        seq: message.seq,
        ...extra,
      }),
    );
  const expire = (message: { id: string; chat: string }) =>
    fixture.record(event('MessageExpired', on(message)));
  return { id, send, on, deleteIt, expire };
};

const seqs = (messages: readonly TimelineMessage[]) => messages.map((message) => message.seq);

export const describeMessageTimelineContract = (
  name: string,
  make: () => Promise<MessageTimelineUnderTest>,
) => {
  const test = (body: (fixture: MessageTimelineUnderTest) => Promise<void>) => withFixture(make, body);

  describe(`MessageTimeline contract: ${name}`, () => {
    it(
      'reads a message as its events made it: edits, reactions, receipts, re-wrapped keys, who hid it',
      test(async (fixture) => {
        const { send, on, id } = conversation(fixture);
        const { timeline, record } = fixture;
        const m = await send('m', { clientMessageId: 'key-1', attachments: ['file'] });
        const sealed = { content: 'reaction', iv: 'iv-r', encryptedKeys: keysOf('alice', 'bob', 'carol') };
        await record(event('ReactionSet', { ...on(m), userId: 'bob', ...sealed }));
        await record(event('ReactionSet', { ...on(m), userId: 'carol', ...sealed }));
        await record(event('ReactionRemoved', { ...on(m), userId: 'carol' }));
        await record(event('MessageSeen', { ...on(m), userId: 'bob' }));
        await record(event('MessageKeyRewrapped', { ...on(m), userId: 'carol', encryptedKey: 'rewrapped' }));
        await record(event('MessageHidden', { ...on(m), userId: 'carol' }));
        await record(event('MessageHidden', { ...on(m), userId: 'carol' }));

        const read = await timeline.get(m.id);
        expect(read).toEqual({
          _id: m.id,
          chat: m.chat,
          sender: 'alice',
          content: 'ciphertext of m',
          iv: 'iv-of-the-message',
          encryptedKeys: keysOf('alice', 'bob', 'carol'),
          replyTo: null,
          seenBy: { bob: true },
          createdAt: at(0),
          seq: m.seq,
          clientMessageId: 'key-1',
          attachments: [id('file')],
          reactions: { bob: sealed },
          rewrappedKeys: { carol: 'rewrapped' },
          hiddenFor: ['carol'],
        });

        const editedAt = at(60);
        const edit = { content: 'edited', iv: 'iv-e', encryptedKeys: keysOf('alice', 'bob') };
        await record(event('MessageEdited', { ...on(m), senderId: 'alice', ...edit }, editedAt));
        const edited = await timeline.get(m.id);
        expect(edited).toMatchObject({ ...edit, editedAt, seq: m.seq, hiddenFor: ['carol'] });
        // The new text has a new key: copies re-wrapped for the old one are moot.
        expect(edited).not.toHaveProperty('rewrappedKeys');

        expect(await timeline.get(id('never-sent'))).toBeNull();
        const other = await send('other');
        const many = await timeline.getMany([m.id, id('never-sent'), other.id, m.id]);
        expect(many.map((message) => message._id).sort()).toEqual([m.id, other.id].sort());
      }),
    );

    it(
      'keeps a tombstone in the place of a message deleted for everyone, with its receipts and nothing of its content',
      test(async (fixture) => {
        const { send, on, deleteIt } = conversation(fixture);
        const { timeline, record } = fixture;
        const before = await send('before');
        const m = await send('m', { clientMessageId: 'key-gone', expiresAt: at(3600) });
        const after = await send('after');
        await record(event('MessageSeen', { ...on(m), userId: 'bob' }));
        await record(event('MessageHidden', { ...on(m), userId: 'carol' }));
        await deleteIt(m, { expiresAt: at(3600) });
        const sealed = { content: 'late', iv: 'iv-l', encryptedKeys: keysOf('alice', 'bob') };
        // Content racing the deletion changes nothing.
        await record(event('MessageEdited', { ...on(m), senderId: 'alice', ...sealed }));
        await record(event('ReactionSet', { ...on(m), userId: 'bob', ...sealed }));
        await record(event('MessageSeen', { ...on(m), userId: 'carol' }));

        const tombstone = await timeline.get(m.id);
        expect(tombstone).toMatchObject({
          _id: m.id,
          chat: m.chat,
          sender: 'alice',
          content: '',
          iv: '',
          encryptedKeys: {},
          seenBy: { bob: true, carol: true },
          createdAt: at(0),
          seq: m.seq,
          deleted: true,
          hiddenFor: ['carol'],
          // A disappearing message deleted for everyone still disappears, tombstone and all.
          expiresAt: at(3600),
        });
        for (const gone of ['reactions', 'clientMessageId', 'editedAt', 'rewrappedKeys', 'attachments'])
          expect(tombstone).not.toHaveProperty(gone);

        const page = await timeline.page({ chatId: m.chat, order: 'newest', limit: 10 });
        expect(seqs(page)).toEqual([after.seq, m.seq, before.seq]);
        expect(page[1]).toEqual(tombstone);
        expect(await timeline.bySenderKey('alice', 'key-gone')).toBeNull();
        expect((await timeline.expiring(at(3600), 10)).map((message) => message._id)).toEqual([m.id]);
      }),
    );

    it(
      'forgets an expired message everywhere, deleted before or not, and a page stays full',
      test(async (fixture) => {
        const { send, deleteIt, expire } = conversation(fixture);
        const { timeline } = fixture;
        const kept = [await send('one'), await send('two')];
        const plain = await send('plain', { expiresAt: at(10), clientMessageId: 'key-x' });
        const deleted = await send('deleted', { expiresAt: at(10) });
        kept.push(await send('three'));
        await deleteIt(deleted, { expiresAt: at(10) });
        expect((await timeline.expiring(at(10), 10)).length).toBe(2);
        await expire(plain);
        await expire(deleted);

        expect(await timeline.get(plain.id)).toBeNull();
        expect(await timeline.get(deleted.id)).toBeNull();
        expect(await timeline.getMany([plain.id, deleted.id])).toEqual([]);
        expect(await timeline.bySenderKey('alice', 'key-x')).toBeNull();
        expect(await timeline.expiring(at(10), 10)).toEqual([]);
        expect(await timeline.nextExpiry(at(0))).toBeNull();
        const page = await timeline.page({ chatId: plain.chat, order: 'newest', limit: 3 });
        expect(seqs(page)).toEqual(kept.map((message) => message.seq).reverse());
      }),
    );

    it(
      "pages one chat by seq, newest or oldest first, within bounds and the reader's times, at most the limit",
      test(async (fixture) => {
        const { send } = conversation(fixture);
        const { timeline } = fixture;
        const chat: Awaited<ReturnType<typeof send>>[] = [];
        const elsewhere: Awaited<ReturnType<typeof send>>[] = [];
        for (let i = 1; i <= 7; i++) {
          chat.push(await send(`m${i}`, { at: i }));
          if (i % 3 === 0) elsewhere.push(await send(`o${i}`, { chat: 'other', at: i }));
        }
        const chatId = chat[0]!.chat;
        const s = (...numbers: number[]) => numbers.map((n) => chat[n - 1]!.seq);
        const page = (query: Partial<Parameters<MessageTimeline['page']>[0]>) =>
          timeline.page({ chatId, order: 'newest', limit: 100, ...query }).then(seqs);

        expect(await page({ limit: 3 })).toEqual(s(7, 6, 5));
        expect(await page({ before: chat[4]!.seq, limit: 2 })).toEqual(s(4, 3));
        expect(await page({ after: chat[1]!.seq, order: 'oldest', limit: 10 })).toEqual(s(3, 4, 5, 6, 7));
        expect(await page({ after: chat[1]!.seq, order: 'oldest', limit: 2 })).toEqual(s(3, 4));
        expect(await page({ after: chat[1]!.seq, before: chat[5]!.seq })).toEqual(s(5, 4, 3));
        // Someone added at t3 and removed at t6 reads what was sent in between.
        expect(await page({ sentFrom: at(3), sentBefore: at(6) })).toEqual(s(5, 4, 3));
        expect(await page({ sentFrom: at(3), sentBefore: at(6), order: 'oldest', limit: 2 })).toEqual(
          s(3, 4),
        );
        expect(await page({ before: chat[0]!.seq })).toEqual([]);
        expect(seqs(await timeline.page({ chatId: elsewhere[0]!.chat, order: 'oldest', limit: 10 }))).toEqual(
          elsewhere.map((message) => message.seq),
        );
        expect(await timeline.page({ chatId: 'no-such-chat', order: 'newest', limit: 10 })).toEqual([]);
      }),
    );

    it(
      "finds a sender's message by its clientMessageId, and no one else's",
      test(async (fixture) => {
        const { send } = conversation(fixture);
        const { timeline } = fixture;
        const mine = await send('mine', { clientMessageId: 'retry-key' });
        await send('theirs', { sender: 'bob', clientMessageId: 'other-key' });
        expect((await timeline.bySenderKey('alice', 'retry-key'))?._id).toBe(mine.id);
        expect(await timeline.bySenderKey('bob', 'retry-key')).toBeNull();
        expect(await timeline.bySenderKey('alice', 'other-key')).toBeNull();
      }),
    );

    it(
      'lists the messages due to expire soonest first, those expiring at one moment together, and the next one to come',
      test(async (fixture) => {
        const { send, expire } = conversation(fixture);
        const { timeline } = fixture;
        const later = await send('later', { expiresAt: at(20) });
        const first = await send('first', { expiresAt: at(5) });
        const same = [
          await send('same-a', { expiresAt: at(10) }),
          await send('same-b', { expiresAt: at(10) }),
        ];
        await send('stays');
        const ids = (messages: readonly TimelineMessage[]) => messages.map((message) => message._id);

        const sameIds = same.map((message) => message.id);
        const due = ids(await timeline.expiring(at(10), 10));
        // Messages expiring at one moment come in either order.
        expect([due[0], due.slice(1).sort()]).toEqual([first.id, sameIds.toSorted()]);
        const two = ids(await timeline.expiring(at(10), 2));
        expect(two[0]).toBe(first.id);
        expect(sameIds).toContain(two[1]);
        expect(two).toHaveLength(2);
        expect(ids(await timeline.expiring(at(4), 10))).toEqual([]);
        expect(await timeline.nextExpiry(at(5))).toBe(at(10));
        expect(await timeline.nextExpiry(at(0))).toBe(at(5));
        expect(await timeline.nextExpiry(at(20))).toBeNull();
        await expire(first);
        expect(sameIds).toContain(ids(await timeline.expiring(at(10), 1))[0]);
        expect(await timeline.nextExpiry(at(0))).toBe(at(10));
        expect((await timeline.get(later.id))?.expiresAt).toBe(at(20));
      }),
    );
  });
};
