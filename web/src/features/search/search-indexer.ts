import type { MessageEditedNotice, MessageRef } from '@veil/contracts';
import type { AppDispatch } from '../../app/hooks.ts';
import {
  readSealedForUser,
  type DisplayMessage,
  chatsApi,
  loadChatContext,
  messagesApi,
  newestSeq,
  followNewMessages,
  type ArrivedMessage,
} from '../messages/index.ts';
import { verifyMessage } from '../keys/index.ts';
import { getSocket, onSocketConnect } from '../../lib/realtime.ts';
import { openSearchVault, type SearchVault } from './search-vault.ts';
import { createMessageIndex, isSavedIndex, type IndexedMessage, type MessageIndex } from './message-index.ts';

/**
 * Keeps the account's message search index in this browser: loaded from its encrypted vault,
 * brought up to date from each chat's history (forwards from where it last read), then fed as
 * messages arrive, are edited, deleted, hidden or expire, and saved again (encrypted) a moment
 * after each change. Queries never leave the browser: `searchMessages` reads the index in memory.
 * docs/search.md.
 */
export interface SearchStatus {
  /** The index is loaded and can answer. */
  ready: boolean;
  /** Still reading history into it. */
  building: boolean;
  indexed: number;
}

/** Pages of one chat read per catch-up (50 messages each); the rest waits for the next start. */
const maxPagesPerChat = 200;
const saveDelayMs = 1500;

interface Running {
  userId: string;
  index: MessageIndex;
  building: boolean;
  stop(): void;
}

let running: Running | null = null;
const listeners = new Set<() => void>();
let status: SearchStatus = { ready: false, building: false, indexed: 0 };

const announce = () => {
  status = {
    ready: running !== null,
    building: running?.building ?? false,
    indexed: running?.index.size ?? 0,
  };
  for (const listener of listeners) listener();
};

export const searchStatus = (): SearchStatus => status;
export const onSearchStatus = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** The best matches for `query` among the messages indexed in this browser. */
export const searchMessages = (query: string, limit?: number) => running?.index.search(query, limit) ?? [];

/** Text a message is found by: what it says and the names of its files. */
const indexedOf = (message: DisplayMessage): IndexedMessage | null => {
  if (message.deleted || message.readState !== 'read') return null;
  const names = (message.attachments ?? []).map((file) => file.name);
  return {
    id: message._id,
    chatId: message.chat,
    seq: message.seq,
    senderId: message.sender._id,
    createdAt: message.createdAt,
    text: [message.decryptedContent, ...names].join('\n'),
    ...(message.expiresAt && { expiresAt: message.expiresAt }),
  };
};

let scheduleSave: () => void = () => {};

/**
 * A chat's history as a screen shows it (the open chat's loaded pages, which run without a gap
 * from the oldest loaded to the newest): each message indexed again (an edit made while this
 * browser was away), and messages the index holds in that stretch but the history no longer does
 * (deleted for everyone or for me, expired) forgotten.
 */
export const indexShownMessages = (userId: string, messages: readonly DisplayMessage[]) => {
  if (running?.userId !== userId || messages.length === 0) return;
  const { index } = running;
  for (const message of messages) {
    const indexed = indexedOf(message);
    if (indexed) index.put(indexed);
    else index.remove(message._id);
  }
  const kept = new Set(messages.filter((message) => !message.deleted).map((message) => message._id));
  index.reconcile(messages[0]!.chat, messages[0]!.seq, messages.at(-1)!.seq, kept);
  scheduleSave();
};

/** The saved index as JSON, or null (none, or damaged: built again from the history). */
const parseSaved = (text: string | null): unknown => {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/**
 * Starts keeping the index for `userId` (stopping one kept for another account). Without a
 * private key in this browser there is nothing to decrypt or to seal with: it does not start.
 */
export const startSearchIndexer = async (userId: string, dispatch: AppDispatch): Promise<() => void> => {
  running?.stop();
  const vault: SearchVault | null = await openSearchVault(userId);
  if (!vault) return () => {};
  const saved = parseSaved(vault.saved);
  const index = createMessageIndex(isSavedIndex(saved) ? saved : undefined);
  let stopped = false;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let expiryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Disappearing messages leave the index when their time comes, whether or not anyone says so. */
  const expireDue = () => {
    clearTimeout(expiryTimer);
    if (stopped) return;
    if (index.purgeExpired(Date.now())) changed();
    const wait = index.untilNextExpiry(Date.now());
    if (wait !== undefined) expiryTimer = setTimeout(expireDue, Math.min(wait + 50, 2 ** 31 - 1));
  };
  const save = () => {
    clearTimeout(saveTimer);
    saveTimer = undefined;
    if (!stopped)
      void vault.save(JSON.stringify(index.save())).catch((error: unknown) => {
        console.error('Could not save the search index', error);
      });
  };
  function changed() {
    announce();
    clearTimeout(saveTimer);
    saveTimer = setTimeout(save, saveDelayMs);
  }
  scheduleSave = () => {
    changed();
    expireDue();
  };

  const socket = getSocket();
  // Checked as the chat checks them: a message whose signature does not hold is not indexed.
  const onMessage = ({ read }: ArrivedMessage) =>
    void read({ userId, dispatch }).then((display) => {
      const indexed = indexedOf(display);
      if (indexed && !stopped) {
        index.put(indexed);
        scheduleSave();
      }
    });
  // An edit is read only if its signature holds, by the sender of the message it changes.
  const checkedEdit = async (notice: MessageEditedNotice) => {
    const stored = index.stored(notice.messageId);
    if (!stored) return null;
    const { chatId, messageId, content, iv, encryptedKeys, editedAt, signature } = notice;
    const edited = {
      _id: messageId,
      chat: chatId,
      sender: { _id: stored.senderId },
      content,
      iv,
      encryptedKeys,
      createdAt: stored.createdAt,
      editedAt,
      replyTo: null,
      ...(signature && { editSignature: signature }),
    };
    const [read, verification] = await Promise.all([
      readSealedForUser(notice, editedAt, userId),
      loadChatContext(dispatch, chatId, userId).then((context) => verifyMessage(edited, context, userId)),
    ]);
    return verification.status === 'failed' ? null : read;
  };
  // An edit keeps the message's place; only its text changes (one this index has not met
  // waits for the chat's history).
  const onEdited = (notice: MessageEditedNotice) =>
    void checkedEdit(notice).then((read) => {
      const stored = index.stored(notice.messageId);
      if (stopped || !stored || !read || read.readState !== 'read') return;
      const names = (read.attachments ?? []).map((file) => file.name);
      index.put({ ...stored, text: [read.decryptedContent, ...names].join('\n') });
      changed();
    });
  const onGone = ({ messageId }: MessageRef) => {
    if (!index.has(messageId)) return;
    index.remove(messageId);
    changed();
  };

  const stopFollowing = followNewMessages(onMessage);
  socket.on('message edited', onEdited);
  socket.on('message deleted', onGone);
  socket.on('message hidden', onGone);
  socket.on('message expired', onGone);
  // `message received` reaches only a connected socket: what arrived while it was down (or
  // before its first connection) is read from the histories when it connects.
  const stopOnConnect = onSocketConnect(() => void readForwards());

  const self: Running = {
    userId,
    index,
    building: true,
    stop() {
      // What changed since the last save is saved before the indexer lets go.
      if (saveTimer) save();
      stopped = true;
      clearTimeout(expiryTimer);
      stopFollowing();
      socket.off('message edited', onEdited);
      socket.off('message deleted', onGone);
      socket.off('message hidden', onGone);
      socket.off('message expired', onGone);
      stopOnConnect();
      if (running === self) running = null;
      announce();
    },
  };
  // One pass over the histories at a time; a connection during one makes one more after it.
  const readAsOf = new Map<string, string>();
  let reading = false;
  let readAgain = false;
  async function readForwards() {
    if (reading) return void (readAgain = true);
    reading = true;
    self.building = true;
    announce();
    try {
      do {
        readAgain = false;
        await catchUp(self, dispatch, () => stopped, scheduleSave, readAsOf);
      } while (readAgain && !stopped);
    } finally {
      reading = false;
      self.building = false;
      announce();
    }
  }
  running = self;
  expireDue();
  void readForwards();
  return () => self.stop();
};

/**
 * Reads every chat's history forwards from where the index last read it, but for the chats that
 * did not change since this page last read them: `readAsOf` holds each chat's `updatedAt` then,
 * which every new message moves.
 */
const catchUp = async (
  self: Running,
  dispatch: AppDispatch,
  stopped: () => boolean,
  changed: () => void,
  readAsOf: Map<string, string>,
) => {
  // The chats as they are now (a chat made while the socket was down included), subscribed while
  // they load so a list invalidated meanwhile is not dropped.
  const request = dispatch(chatsApi.endpoints.getChats.initiate(undefined, { forceRefetch: true }));
  const chats = await request.finally(() => request.unsubscribe());
  for (const chat of chats.data ?? []) {
    if (readAsOf.get(chat._id) === chat.updatedAt) continue;
    let after = self.index.caughtUpTo(chat._id);
    for (let page = 0; page < maxPagesPerChat && !stopped(); page += 1) {
      const result = await dispatch(
        messagesApi.endpoints.getMessagePage.initiate(
          { chatId: chat._id, userId: self.userId, after },
          { subscribe: false, forceRefetch: true },
        ),
      );
      if (!result.data || stopped()) return;
      for (const message of result.data.messages) {
        const indexed = indexedOf(message);
        if (indexed) self.index.put(indexed);
      }
      const last = newestSeq(result.data.messages);
      if (last !== undefined) self.index.readUpTo(chat._id, last);
      changed();
      if (!result.data.hasMore || last === undefined) break;
      after = last;
    }
    readAsOf.set(chat._id, chat.updatedAt);
  }
};
