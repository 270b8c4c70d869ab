import {
  foldMessage,
  quotedViewOf,
  type MessageEvent,
  type MessageState,
  type MessageView,
} from '@veil/contracts';
import { LRUCache } from 'lru-cache';

/** A few MB: the messages recent enough to be replied to, in a chat app, fit in it many times over. */
export const defaultQuoteCacheBytes = 4 * 1024 * 1024;

/** A message followed here from its MessageSent; `null` once it expired (quoted as nothing). */
interface Followed {
  state: MessageState | null;
}

/** What a followed message costs beyond its ciphertext and keys: ids, times, signatures, the entry. */
const entryOverheadBytes = 600;
const lengthOfValues = (map: Record<string, unknown> | undefined) => {
  let length = 0;
  for (const key in map) length += key.length + JSON.stringify(map[key]).length;
  return length;
};
/**
 * What a followed message costs, about: its ciphertext and wrapped keys dominate (ASCII), counted
 * without serialising the whole message again on the path of every send.
 */
const approximateBytes = ({ state }: Followed) => {
  if (!state) return entryOverheadBytes;
  let length = entryOverheadBytes + state.content.length + state.iv.length;
  for (const id in state.encryptedKeys) length += id.length + state.encryptedKeys[id]!.length;
  return length + lengthOfValues(state.reactions) + lengthOfValues(state.rewrappedKeys);
};

export interface QuoteCache {
  /**
   * The quoted view of a message this replica followed from its MessageSent: null if it expired,
   * undefined if it was sent before this replica started following or was evicted since.
   */
  quoteOf(messageId: string): MessageView | null | undefined;
  /** One event of the message log, applied in log order, each once. */
  apply(event: MessageEvent, position: number): void;
  /** The bytes the followed messages take, about. */
  bytes(): number;
}

/**
 * The messages this replica saw sent, each folded from its events in log order with the same
 * functions as the message service's timeline, so a reply's quote comes from the log the fan-out
 * is at without a call per reply. Bounded in bytes, least recently sent, changed or quoted first
 * out. A deletion leaves the tombstone and an expiry nothing: no ciphertext outlives its erasure.
 */
export const createQuoteCache = (maxBytes = defaultQuoteCacheBytes): QuoteCache => {
  const followed = new LRUCache<string, Followed>({ maxSize: maxBytes, sizeCalculation: approximateBytes });
  return {
    quoteOf(messageId) {
      const found = followed.get(messageId);
      if (!found) return undefined;
      return found.state && quotedViewOf(found.state);
    },
    apply(event, position) {
      const { messageId } = event.data;
      const found = followed.peek(messageId);
      // Only a message whose MessageSent this replica saw is known whole; any other is left to getMessage.
      if (!found && event.type !== 'MessageSent') return;
      const before = found?.state ?? null;
      const after = foldMessage(before, event, position);
      if (!found || after !== before) followed.set(messageId, { state: after });
    },
    bytes: () => followed.calculatedSize,
  };
};
