import { createStore, get, update } from 'idb-keyval';

/**
 * Where this browser is in each chat's signed sequence, per account (IndexedDB, database
 * `veil-signing`, entry `sequence:<accountId>`): the last counter it signed and the client id of
 * its last message there, so both survive a reload. A second browser of the account keeps its
 * own, and moves past any counter of its account it sees (`observeOwnCounter`), so the account's
 * counters climb together (docs/crypto.md, "Order and replay").
 */
export interface ChatSequence {
  counter: number;
  lastMessage: string | null;
}

const store = createStore('veil-signing', 'sequences');
const entry = (accountId: string) => `sequence:${accountId}`;
const start: ChatSequence = { counter: 0, lastMessage: null };

/**
 * The next counter in `chat` and the previous message to name, taken in one transaction (two tabs
 * never sign the same counter); a message (`clientMessageId` given) becomes the one the next
 * names, an action does not.
 */
export const takeNextSequence = async (
  accountId: string,
  chat: string,
  clientMessageId: string | null,
): Promise<{ counter: number; prev: string | null }> => {
  let taken = { counter: 0, prev: null as string | null };
  await update<Record<string, ChatSequence>>(
    entry(accountId),
    (all) => {
      const current = all?.[chat] ?? start;
      taken = { counter: current.counter + 1, prev: current.lastMessage };
      const next = { counter: taken.counter, lastMessage: clientMessageId ?? current.lastMessage };
      return { ...all, [chat]: next };
    },
    store,
  );
  return taken;
};

/** Moves this browser's counter in `chat` past one its account signed elsewhere. */
export const observeOwnCounter = async (
  accountId: string,
  chat: string,
  seen: { counter: number; clientMessageId: string | null },
): Promise<void> => {
  const current = (await get<Record<string, ChatSequence>>(entry(accountId), store))?.[chat];
  if (current && current.counter >= seen.counter) return;
  await update<Record<string, ChatSequence>>(
    entry(accountId),
    (all) => {
      const now = all?.[chat] ?? start;
      if (now.counter >= seen.counter) return all ?? {};
      return {
        ...all,
        [chat]: { counter: seen.counter, lastMessage: seen.clientMessageId ?? now.lastMessage },
      };
    },
    store,
  );
};
