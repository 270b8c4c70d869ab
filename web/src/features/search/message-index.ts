import MiniSearch, { type SearchResult } from 'minisearch';

/** One message as the search index keeps it: its text (and file names), where it is, when. */
export interface IndexedMessage {
  id: string;
  chatId: string;
  seq: number;
  senderId: string;
  createdAt: string;
  text: string;
  /** A disappearing message: forgotten from then on, even if no one says so. */
  expiresAt?: string;
}

export interface MessageHit extends IndexedMessage {
  /** The query's terms as found in the text (after prefix and fuzzy matching). */
  terms: string[];
}

/** Where an indexed message is, by id: what reconciling a chat and expiring need without a query. */
type Place = [chatId: string, seq: number, expiresAt?: string];

/** What is saved: the index itself, each message's place and, per chat, how far it has been read. */
export interface SavedIndex {
  version: 2;
  index: unknown;
  places: Record<string, Place>;
  caughtUpTo: Record<string, number>;
}

const options = {
  fields: ['text'],
  storeFields: ['chatId', 'seq', 'senderId', 'createdAt', 'text', 'expiresAt'],
  searchOptions: {
    // Every word must be there; the last one is being typed (a prefix); a word of five letters
    // or more may have one typo. Prefixes and typos of every word would cost far more per query.
    combineWith: 'AND' as const,
    prefix: (_term: string, i: number, terms: string[]) => i === terms.length - 1,
    fuzzy: (term: string) => (term.length >= 5 ? 1 : false),
  },
};

const hitOf = (hit: SearchResult): MessageHit => ({
  id: hit.id as string,
  chatId: hit.chatId as string,
  seq: hit.seq as number,
  senderId: hit.senderId as string,
  createdAt: hit.createdAt as string,
  text: hit.text as string,
  ...(hit.expiresAt !== undefined && { expiresAt: hit.expiresAt as string }),
  terms: hit.terms,
});

const expiredBy = (expiresAt: string | undefined, now: number) =>
  expiresAt !== undefined && Date.parse(expiresAt) <= now;

/**
 * The browser's full-text index of the messages it has decrypted (MiniSearch). Pure: no I/O,
 * no crypto; `search-indexer.ts` feeds it and `lib/search-vault.ts` keeps it encrypted at rest.
 */
export const createMessageIndex = (saved?: SavedIndex) => {
  const index = saved
    ? MiniSearch.loadJS<IndexedMessage>(saved.index as Parameters<typeof MiniSearch.loadJS>[0], options)
    : new MiniSearch<IndexedMessage>(options);
  const places = new Map<string, Place>(Object.entries(saved?.places ?? {}));
  const caughtUpTo: Record<string, number> = { ...saved?.caughtUpTo };

  const remove = (id: string) => {
    if (index.has(id)) index.discard(id);
    places.delete(id);
  };

  return {
    /** Adds a message, or replaces what was indexed for it (an edit). Empty text is left out. */
    put(message: IndexedMessage) {
      remove(message.id);
      if (!message.text.trim()) return;
      index.add(message);
      const place: Place = message.expiresAt
        ? [message.chatId, message.seq, message.expiresAt]
        : [message.chatId, message.seq];
      places.set(message.id, place);
    },
    /** Forgets a message (deleted for everyone or for me, expired). */
    remove,
    has: (id: string) => index.has(id),
    /** What is kept of an indexed message, or undefined. */
    stored(id: string): IndexedMessage | undefined {
      const fields = index.getStoredFields(id);
      return fields ? ({ id, ...fields } as unknown as IndexedMessage) : undefined;
    },
    /**
     * A stretch of a chat's history as the server has it now (positions `from` to `to`, and the
     * messages in it): indexed messages of the chat in that stretch that are not there any more
     * (deleted for me, expired, while this browser was away) are forgotten. Returns how many.
     */
    reconcile(chatId: string, from: number, to: number, present: ReadonlySet<string>): number {
      let removed = 0;
      for (const [id, [chat, seq]] of places) {
        if (chat === chatId && seq >= from && seq <= to && !present.has(id)) {
          remove(id);
          removed += 1;
        }
      }
      return removed;
    },
    /** Forgets every message whose disappearing timer has run out; returns how many. */
    purgeExpired(now: number): number {
      let removed = 0;
      for (const [id, [, , expiresAt]] of places) {
        if (expiredBy(expiresAt, now)) {
          remove(id);
          removed += 1;
        }
      }
      return removed;
    },
    /** Milliseconds until the next indexed message expires; undefined when none will. */
    untilNextExpiry(now: number): number | undefined {
      let next: number | undefined;
      for (const [, , expiresAt] of places.values()) {
        if (expiresAt === undefined) continue;
        const at = Date.parse(expiresAt);
        if (next === undefined || at < next) next = at;
      }
      return next === undefined ? undefined : Math.max(0, next - now);
    },
    /** The newest position read for a chat (0: none). */
    caughtUpTo: (chatId: string) => caughtUpTo[chatId] ?? 0,
    readUpTo(chatId: string, seq: number) {
      if (seq > (caughtUpTo[chatId] ?? 0)) caughtUpTo[chatId] = seq;
    },
    /** The best matches first. Expired messages are never among them. */
    search(query: string, limit = 50, now = Date.now()): MessageHit[] {
      if (!query.trim()) return [];
      // MiniSearch answers best first: the first `limit` that have not expired are the page.
      const hits: MessageHit[] = [];
      for (const hit of index.search(query)) {
        if (expiredBy(hit.expiresAt as string | undefined, now)) continue;
        hits.push(hitOf(hit));
        if (hits.length === limit) break;
      }
      return hits;
    },
    get size() {
      return index.documentCount;
    },
    save(): SavedIndex {
      return {
        version: 2,
        index: index.toJSON(),
        places: Object.fromEntries(places),
        caughtUpTo: { ...caughtUpTo },
      };
    },
  };
};

export type MessageIndex = ReturnType<typeof createMessageIndex>;

/** A saved index this version reads (an older or damaged one is built again). */
export const isSavedIndex = (value: unknown): value is SavedIndex =>
  typeof value === 'object' && value !== null && (value as { version?: unknown }).version === 2;
