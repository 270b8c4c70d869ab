import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { AttachmentRef, CallRecord, MessageMention } from '@veil/crypto';
import type { DisplayMessage } from '../display-message.ts';

/**
 * A message the user wrote that the server has not stored yet. `clientMessageId` is fixed when
 * it is written and sent with every attempt, so however often it is tried the server stores it
 * once. `sending`: it goes out as soon as there is a connection; `failed`: the server refused it
 * and the user decides (retry or discard).
 */
export interface OutboxItem {
  clientMessageId: string;
  chatId: string;
  text: string;
  replyTo: DisplayMessage | null;
  /** Files already uploaded (encrypted) for this message: their keys go inside its ciphertext. */
  attachments?: AttachmentRef[];
  /** A call's entry, sent by the caller's browser when the call ended; `text` is empty. */
  call?: CallRecord;
  /** Members the text names, picked in the composer: sealed with the text. */
  mentions?: MessageMention[];
  queuedAt: string;
  status: 'sending' | 'failed';
  /** A try got no answer (no network): it goes by itself once there is one. */
  waiting?: boolean;
  error?: string;
}

interface OutboxState {
  /** Whose outbox is loaded (from IndexedDB), or null before it is. */
  owner: string | null;
  /** Oldest first: they are sent in this order. */
  items: OutboxItem[];
}

const initialState: OutboxState = { owner: null, items: [] };

export const outboxSlice = createSlice({
  name: 'outbox',
  initialState,
  reducers: {
    /**
     * The stored outbox, read after the page loaded: messages written before it was read (the
     * session's services load on their own) stay, after the stored ones; none is lost.
     */
    outboxLoaded: (state, action: PayloadAction<{ owner: string; items: OutboxItem[] }>) => {
      const { owner, items } = action.payload;
      const early = state.owner === null || state.owner === owner ? state.items : [];
      const stored = new Set(items.map((item) => item.clientMessageId));
      return { owner, items: [...items, ...early.filter((item) => !stored.has(item.clientMessageId))] };
    },
    outboxCleared: () => initialState,
    messageQueued: (state, action: PayloadAction<OutboxItem>) => {
      state.items.push(action.payload);
    },
    messageStored: (state, action: PayloadAction<string>) => {
      state.items = state.items.filter((item) => item.clientMessageId !== action.payload);
    },
    messageWaiting: (state, action: PayloadAction<string>) => {
      const item = state.items.find((queued) => queued.clientMessageId === action.payload);
      if (item) item.waiting = true;
    },
    messageRefused: (state, action: PayloadAction<{ clientMessageId: string; error: string }>) => {
      const item = state.items.find((queued) => queued.clientMessageId === action.payload.clientMessageId);
      if (item) Object.assign(item, { status: 'failed', error: action.payload.error, waiting: false });
    },
    retryRequested: (state, action: PayloadAction<string>) => {
      const item = state.items.find((queued) => queued.clientMessageId === action.payload);
      if (item) {
        item.status = 'sending';
        delete item.error;
      }
    },
    /** Only ever by the user's own choice, on a refused message. */
    messageDiscarded: (state, action: PayloadAction<string>) => {
      state.items = state.items.filter((item) => item.clientMessageId !== action.payload);
    },
  },
  selectors: {
    selectOutbox: (state) => state,
  },
});

export const {
  outboxLoaded,
  outboxCleared,
  messageQueued,
  messageStored,
  messageRefused,
  messageWaiting,
  retryRequested,
  messageDiscarded,
} = outboxSlice.actions;
export const { selectOutbox } = outboxSlice.selectors;
