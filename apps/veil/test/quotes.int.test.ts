import {
  DomainError,
  messageRpc,
  messageStreamId,
  type MessageEvent,
  type MessageView,
} from '@veil/contracts';
import { rpcClient } from '@veil/kernel';
import { ulid } from 'ulid';
import { afterAll, describe, expect, it } from 'vitest';
import { scrape } from './support/prometheus.ts';
import { socketPool } from './support/sockets.ts';
import { useTestVeil } from './support/test-veil.ts';
import { createUser, sendDirect, type TestUser } from './support/users.ts';

type Sent = Extract<MessageEvent, { type: 'MessageSent' }>;

const running = useTestVeil();
const sockets = socketPool(() => running.veil.url);
afterAll(() => sockets.closeAll());

/** A small seeded generator (mulberry32): the same sequence on every run. */
const seeded = (seed: number) => {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

const sealed = (text: string, members: readonly string[]) => ({
  content: Buffer.from(text).toString('base64'),
  iv: Buffer.from(ulid()).toString('base64').slice(0, 16),
  encryptedKeys: Object.fromEntries(
    members.map((id) => [id, Buffer.from(`${text} for ${id}`).toString('base64')]),
  ),
});

describe("the realtime fan-out's quotes", () => {
  it("equal the message service's getMessage after a random run of sends, edits, deletions, expiries, re-wraps, reactions and receipts", async () => {
    const { veil, api } = running;
    const alice = await createUser(api, 'quoter');
    const bob = await createUser(api, 'quoted');
    const first = await sendDirect(api, alice, bob, 'hello');
    expect(first.status).toBe(201);
    const chatId: string = first.body.data.chat._id;
    const members = [alice._id, bob._id];

    const socket = await sockets.connect(bob);
    const received = new Map<string, MessageView>();
    const waiting = new Map<string, (message: MessageView) => void>();
    socket.on('message received', ({ message }) => {
      received.set(message._id, message);
      waiting.get(message._id)?.(message);
    });
    const receivedOnce = (messageId: string) =>
      new Promise<MessageView>((resolve) => {
        const found = received.get(messageId);
        if (found) resolve(found);
        else waiting.set(messageId, resolve);
      });

    const meta = (messageId: string) => ({
      eventId: ulid(),
      streamId: messageStreamId(messageId),
      occurredAt: new Date().toISOString(),
      schemaVersion: 1,
    });
    const append = (event: MessageEvent) => veil.ports.bus.append('message', event);
    const send = async (from: TestUser, replyTo: string | null, extra: Partial<Sent['data']> = {}) => {
      const messageId = ulid();
      const event: Sent = {
        ...meta(messageId),
        type: 'MessageSent',
        data: {
          messageId,
          chatId,
          senderId: from._id,
          ...sealed(`text ${messageId}`, members),
          replyTo,
          ...extra,
        },
      };
      const { position } = await append(event);
      return { event, position };
    };

    // Appended as the message service appends them, without its checks: content that races a
    // deletion or an expiry is among what the quotes must ignore as the service does.
    const random = seeded(20_261_128);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    /** Half the time, a signature (its bytes are not checked on the way from the log). */
    const maybeSigned = () =>
      random() < 0.5
        ? {
            signature: {
              value: Buffer.alloc(64, ulid()).toString('base64'),
              signedAt: new Date().toISOString(),
            },
          }
        : {};
    const messages: Awaited<ReturnType<typeof send>>[] = [];
    for (let step = 0; step < 80; step += 1) {
      const roll = random();
      if (messages.length === 0 || roll < 0.3) {
        const replyTo = messages.length > 0 && random() < 0.3 ? pick(messages).event.data.messageId : null;
        const expiresAt =
          random() < 0.3 ? { expiresAt: new Date(Date.now() + 86_400_000).toISOString() } : {};
        messages.push(
          await send(pick([alice, bob]), replyTo, {
            clientMessageId: ulid(),
            ...expiresAt,
            ...maybeSigned(),
          }),
        );
        continue;
      }
      const { event: sent, position } = pick(messages);
      const { messageId, senderId } = sent.data;
      const ids = { messageId, chatId };
      const member = pick(members);
      if (roll < 0.5) {
        await append({
          ...meta(messageId),
          type: 'MessageEdited',
          data: { ...ids, senderId, ...sealed(`edit ${step}`, members), ...maybeSigned() },
        });
      } else if (roll < 0.6) {
        await append({
          ...meta(messageId),
          type: 'MessageDeleted',
          data: {
            ...ids,
            senderId,
            deletedBy: senderId,
            sentAt: sent.occurredAt,
            seq: position,
            ...maybeSigned(),
          },
        });
      } else if (roll < 0.65) {
        await append({ ...meta(messageId), type: 'MessageExpired', data: ids });
      } else if (roll < 0.78) {
        const encryptedKey = Buffer.from(`rewrapped ${step}`).toString('base64');
        await append({
          ...meta(messageId),
          type: 'MessageKeyRewrapped',
          data: { ...ids, userId: member, encryptedKey },
        });
      } else if (roll < 0.86) {
        await append({
          ...meta(messageId),
          type: 'ReactionSet',
          data: { ...ids, userId: member, ...sealed(`reaction ${step}`, members) },
        });
      } else if (roll < 0.9) {
        await append({ ...meta(messageId), type: 'ReactionRemoved', data: { ...ids, userId: member } });
      } else if (roll < 0.96) {
        await append({ ...meta(messageId), type: 'MessageSeen', data: { ...ids, userId: member } });
      } else {
        await append({ ...meta(messageId), type: 'MessageHidden', data: { ...ids, userId: member } });
      }
    }

    const counted = async (result: 'hit' | 'miss') =>
      (await scrape(veil.url)).value('veil_realtime_quotes_total', { result }) ?? 0;
    const [hitsBefore, missesBefore] = [await counted('hit'), await counted('miss')];
    const replies = [];
    for (const { event } of messages) replies.push(await send(alice, event.data.messageId));
    const quotes = await Promise.all(
      replies.map(async ({ event }) => (await receivedOnce(event.data.messageId)).replyTo),
    );
    expect(await counted('hit')).toBe(hitsBefore + messages.length);
    expect(await counted('miss')).toBe(missesBefore);

    const service = rpcClient(veil.ports.rpc, messageRpc);
    // Found once the timeline has applied it, and with it every event before it in the log.
    await service.getMessage({ messageId: replies.at(-1)!.event.data.messageId });
    const answers = await Promise.all(
      messages.map(async ({ event }) => {
        try {
          // As a quote: the message it replies to is not nested.
          return {
            ...(await service.getMessage({ messageId: event.data.messageId })).message,
            replyTo: null,
          };
        } catch (error) {
          if (error instanceof DomainError && error.code === 'MESSAGE_NOT_FOUND') return null;
          throw error;
        }
      }),
    );
    expect(quotes).toEqual(answers);
    // The run reached every kind of state.
    expect(answers.some((view) => view === null)).toBe(true);
    expect(answers.some((view) => view?.deleted)).toBe(true);
    for (const shown of [
      'editedAt',
      'rewrappedKeys',
      'reactions',
      'signature',
      'editSignature',
      'deleteSignature',
      'expiresAt',
      'clientMessageId',
    ] as const)
      expect(answers.some((view) => view?.[shown])).toBe(true);
    expect(answers.some((view) => view && Object.keys(view.seenBy).length > 0)).toBe(true);
  });
});
