import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { sendCommandOf } from '../http/message-change-commands.ts';
import { sendGroupBodySchema, sendIndividualBodySchema } from '../http/schemas.ts';
import { socketSendSchema } from '../realtime/socket-payloads.schemas.ts';
import { authRpc } from './auth.rpc.ts';
import { chatRpc } from './chat.rpc.ts';
import { messageRpc } from './message.rpc.ts';
import type { RpcService } from './rpc.ts';
import { userRpc } from './user.rpc.ts';

/**
 * An operation marked `checkedAtEdge` is served in process without its schema (rpc.ts). That is
 * only sound if its schema would hand the handler exactly what the caller built, and if every
 * edge that builds it refuses at least what the schema refuses. These hold both to it.
 */

const services: RpcService[] = [authRpc, chatRpc, messageRpc, userRpc];

/** The kinds of schema whose output differs from their input. */
const reshaping = new Set(['default', 'prefault', 'transform', 'pipe', 'catch', 'success']);

/** Every schema reachable from `schema` (object fields, wrapped and element types, union options). */
const schemasIn = (schema: z.ZodType, seen = new Set<unknown>()): z.ZodType[] => {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const found: z.ZodType[] = [schema];
  const visit = (value: unknown) => {
    if (value && typeof value === 'object' && '_zod' in value)
      found.push(...schemasIn(value as z.ZodType, seen));
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype)
      Object.values(value).forEach(visit);
  };
  Object.values(schema._zod.def).forEach(visit);
  return found;
};

const id = (n: number) => `id${n}`.padEnd(24, '0');
const b64 = (bytes: number) => btoa('x'.repeat(bytes));
const signature = {
  value: b64(64),
  signedAt: '2026-11-29T01:00:00.000Z',
  version: 3,
  keyCommitment: b64(32),
  keyLogHeads: { [id(1)]: 'a'.repeat(64) },
  counter: 7,
  prev: 'client-message-0',
  franking: b64(32),
};
const groupBody = {
  encryptedMessage: b64(600),
  iv: b64(12),
  encryptedKeys: { [id(1)]: b64(256), [id(2)]: b64(256), [id(3)]: b64(256) },
  replyTo: id(9),
  clientMessageId: 'client-message-1',
  attachments: [id(7)],
  signature,
};
const individualBody = {
  encryptedMessage: b64(600),
  iv: b64(12),
  encryptedAESKeyForRecipient: b64(256),
  encryptedAESKeyForSender: b64(256),
  clientMessageId: 'client-message-2',
};

/** Each edge that sends, as the command it hands the message service. */
const edges = {
  'the socket': (body: unknown) => {
    const parsed = socketSendSchema.parse(body);
    return sendCommandOf(id(1), parsed.chatId, parsed.encryptedKeys, parsed);
  },
  'HTTP, a group': (body: unknown) => {
    const parsed = sendGroupBodySchema.parse(body);
    return sendCommandOf(id(1), id(5), parsed.encryptedKeys, parsed);
  },
  'HTTP, one-to-one': (body: unknown) => {
    const parsed = sendIndividualBodySchema.parse(body);
    const keys = { [id(2)]: parsed.encryptedAESKeyForRecipient, [id(1)]: parsed.encryptedAESKeyForSender };
    return { ...sendCommandOf(id(1), id(5), keys, parsed), afterChatPosition: 12 };
  },
};
const bodyFor = (edge: keyof typeof edges, changes: Record<string, unknown> = {}) => ({
  ...(edge === 'HTTP, one-to-one' ? individualBody : groupBody),
  ...(edge === 'the socket' && { chatId: id(5) }),
  ...changes,
});

describe('operations served in process without a second parse', () => {
  const marked = services.flatMap((service) =>
    Object.entries(service.operations)
      .filter(([, op]) => op.checkedAtEdge)
      .map(([name, op]) => ({ name: `${service.name}.${name}`, op })),
  );

  it('are the message send alone: the edges of any other must be held to it here first', () => {
    expect(marked.map(({ name }) => name)).toEqual(['message.send']);
  });

  it('neither default nor transform what they are given', () => {
    for (const { op } of marked) {
      const kinds = schemasIn(op.input).map((schema) => schema._zod.def.type);
      expect(kinds.filter((kind) => reshaping.has(kind))).toEqual([]);
    }
  });

  const send = messageRpc.operations.send.input;
  for (const [edge, toCommand] of Object.entries(edges) as [keyof typeof edges, (b: unknown) => object][]) {
    it(`get from ${edge} a command the send schema takes as it is`, () => {
      const command = toCommand(bodyFor(edge));
      expect(send.parse(command)).toEqual(command);
      const bare = toCommand(
        bodyFor(edge, { replyTo: undefined, attachments: undefined, signature: undefined }),
      );
      expect(send.parse(bare)).toEqual(bare);
    });

    it(`are refused at ${edge} wherever the send schema would refuse them`, () => {
      const refusedBySchema = {
        replyTo: 'not an id!',
        clientMessageId: 'short',
        attachments: ['not an id!'],
        signature: { ...signature, counter: 0 },
        iv: 42,
        encryptedMessage: null,
      };
      for (const [field, value] of Object.entries(refusedBySchema)) {
        expect(() => toCommand(bodyFor(edge, { [field]: value })), field).toThrow();
      }
    });
  }
});
