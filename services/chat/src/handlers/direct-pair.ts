import { chatStreamId, pairStreamId } from '@veil/contracts';
import { isVersionConflict, newEvent, withRetry } from '@veil/kernel';
import type { Clock, ContextEventStore, IdGenerator } from '@veil/ports';

/**
 * Exactly one one-to-one chat per pair of users. The pair has its own stream
 * (`pair-<a>-<b>`, ids sorted) whose first event names the chat: claiming it is an append
 * with expected version 0, so when both users send a first message at the same moment one
 * claim wins and the other re-reads it. Creating the chat itself is a second append with
 * expected version 0 on the chat's stream, which also makes a retry after a crash between
 * the two appends safe.
 */
type Deps = { store: ContextEventStore; clock: Clock; ids: IdGenerator };

export const ensureDirectChat = async (
  deps: Deps,
  userId: string,
  otherUserId: string,
): Promise<{ chatId: string; position: number; created: boolean }> => {
  const members: [string, string] = [userId, otherUserId];
  const pairId = pairStreamId(userId, otherUserId);

  const chatId = await withRetry(async () => {
    const last = await deps.store.readLast('chat', pairId);
    // A pair's stream holds only its claim.
    if (last?.event.type === 'DirectPairClaimed') return last.event.data.chatId;
    const candidate = deps.ids.next();
    await deps.store.append(
      'chat',
      newEvent(deps, 'DirectPairClaimed', pairId, { chatId: candidate, members }),
      {
        expectedVersion: 0,
      },
    );
    return candidate;
  });

  try {
    const { position } = await deps.store.append(
      'chat',
      newEvent(deps, 'DirectChatCreated', chatStreamId(chatId), { chatId, members, createdBy: userId }),
      { expectedVersion: 0 },
    );
    return { chatId, position, created: true };
  } catch (error) {
    if (!isVersionConflict(error)) throw error;
    const created = await deps.store.readLast('chat', chatStreamId(chatId));
    return { chatId, position: created?.position ?? 0, created: false };
  }
};
