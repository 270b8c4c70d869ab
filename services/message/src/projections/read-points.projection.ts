import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';
import { newerSeen } from '../domain/unread.ts';

/** The newest message one member has seen in one chat (unread counts start after it). */
export interface ReadPointDoc {
  _id: string;
  seenUpTo: string;
}

export type ReadPointModels = { readPoints: Collection<ReadPointDoc> };

export const openReadPointModels = async (readStore: ReadStore): Promise<ReadPointModels> => ({
  readPoints: await readStore.collection<ReadPointDoc>('message_read_points'),
});

export const readPointId = (userId: string, chatId: string) => `${userId}:${chatId}`;

/**
 * Each member's read point per chat, from the seen reports alone: a new message writes nothing
 * here, so unread counts cost the send path nothing (they are counted when asked for,
 * domain/unread.ts). A projection of its own, with its own checkpoint: a data dir from before it
 * existed gets it built from the whole log at the first start.
 */
export const readPointProjection = (
  models: ReadPointModels,
): ProjectionDefinition<ReadPointModels, 'message'> => ({
  name: 'message_read_points',
  contexts: ['message'],
  models,
  async handle({ event }, { readPoints }) {
    if (event.type !== 'MessageSeen') return;
    const { userId, chatId, messageId } = event.data;
    const id = readPointId(userId, chatId);
    const current = (await readPoints.get(id))?.seenUpTo ?? null;
    const seenUpTo = newerSeen(current, messageId);
    if (seenUpTo !== current) await readPoints.put({ _id: id, seenUpTo });
  },
});
