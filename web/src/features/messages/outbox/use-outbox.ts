import { useCallback, useEffect, useRef } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import type { RootState } from '../../../app/hooks.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { KeysUncheckedError } from '../../keys/index.ts';
import { NoConnectionError } from '../../../lib/fetch-data.ts';
import { type DisplayMessage } from '../display-message.ts';
import { sendFailureText } from '../send-errors.ts';
import type { AttachmentRef, CallRecord, MessageMention } from '@veil/crypto';
import { getSocket, onSocketConnect } from '../../../lib/realtime.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { chatByIdApi } from '../api/chat-by-id.api.ts';
import { deliverMessage } from './deliver.ts';
import { readOutbox, writeOutbox } from './outbox-store.ts';
import {
  messageQueued,
  messageRefused,
  messageStored,
  messageWaiting,
  outboxCleared,
  outboxLoaded,
  selectOutbox,
  type OutboxItem,
} from './outbox.slice.ts';

/** After a failure for want of a connection the next try waits this long, doubling up to the cap (or until a reconnect, or the browser is back online). */
const firstRetryMs = 1_000;
const longestRetryMs = 10_000;

/**
 * No answer at all (offline, server down, a network that dropped without the socket noticing,
 * a request that timed out): the message waits and goes later. That covers a key log the
 * network did not bring, and a fetch that threw; a failure that is not the API's answer counts
 * as one too while the socket is down: a refusal comes from a server that can be reached.
 */
const isConnectionFailure = (failure: unknown) => {
  if (isApiError(failure)) return failure.kind === 'network';
  if (failure instanceof KeysUncheckedError) return failure.unreachable;
  if (failure instanceof NoConnectionError) return true;
  return !getSocket().connected;
};

/**
 * Runs the logged-in account's outbox, once per page (the shell mounts it): loads it from
 * IndexedDB, keeps IndexedDB in step, and sends what waits, one message at a time and oldest
 * first, whenever there is something to send and a chance of a connection: at once, on every
 * socket (re)connection, when the browser is back online, and after a growing wait (1 s, 2 s, …
 * up to 10 s) while sends fail for want of a connection, the message shown as waiting for it. A refused message is marked failed and waits for the user.
 */
export const useOutboxRunner = () => {
  const me = useAppSelector(selectCurrentUser);
  const { owner, items } = useAppSelector(selectOutbox);
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const draining = useRef<{ again: boolean } | null>(null);
  const retryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const retryDelay = useRef(firstRetryMs);

  useEffect(() => {
    if (!me) return void dispatch(outboxCleared());
    let live = true;
    void readOutbox(me._id).then(
      (stored) => live && dispatch(outboxLoaded({ owner: me._id, items: stored })),
    );
    return () => {
      live = false;
    };
  }, [me, dispatch]);

  // IndexedDB follows the state; writes go one after another, so the last state is the one kept.
  const writing = useRef(Promise.resolve());
  useEffect(() => {
    if (!owner) return;
    writing.current = writing.current.then(() => writeOutbox(owner, items)).catch(() => undefined);
  }, [owner, items]);

  const drain = useCallback(async () => {
    if (draining.current) return void (draining.current.again = true);
    draining.current = { again: false };
    clearTimeout(retryTimer.current);
    try {
      for (;;) {
        const { owner: account, items: queued } = selectOutbox(store.getState());
        const user = selectCurrentUser(store.getState());
        const next = queued.find((item) => item.status === 'sending');
        if (!next || !user || user._id !== account) break;
        try {
          await deliverMessage(dispatch, user, next);
          dispatch(messageStored(next.clientMessageId));
          retryDelay.current = firstRetryMs;
        } catch (failure) {
          if (isConnectionFailure(failure)) {
            if (!next.waiting) dispatch(messageWaiting(next.clientMessageId));
            retryTimer.current = setTimeout(() => void drain(), retryDelay.current);
            retryDelay.current = Math.min(retryDelay.current * 2, longestRetryMs);
            break;
          }
          const chat = chatByIdApi.endpoints.getChatById.select(next.chatId)(store.getState()).data;
          const error = sendFailureText(chat?.isGroupChat ?? false, failure, {
            accountId: user._id,
            nameOf: (id) => chat?.participants.find((member) => member._id === id)?.username,
          });
          dispatch(messageRefused({ clientMessageId: next.clientMessageId, error }));
        }
      }
    } finally {
      const again = draining.current.again;
      draining.current = null;
      if (again) void drain();
    }
  }, [dispatch, store]);

  const waiting = items.some((item) => item.status === 'sending');
  useEffect(() => {
    if (owner && waiting) void drain();
  }, [owner, waiting, items, drain]);

  useEffect(() => {
    const again = () => {
      retryDelay.current = firstRetryMs;
      void drain();
    };
    const stopOnConnect = onSocketConnect(again);
    window.addEventListener('online', again);
    return () => {
      stopOnConnect();
      window.removeEventListener('online', again);
      clearTimeout(retryTimer.current);
    };
  }, [drain]);
};

/** Puts a message in the outbox (which the runner keeps in IndexedDB); it is sent from there. */
export const useQueueMessage = () => {
  const dispatch = useAppDispatch();
  return useCallback(
    (
      chatId: string,
      text: string,
      replyTo: DisplayMessage | null,
      attachments: AttachmentRef[] = [],
      call?: CallRecord,
      mentions: MessageMention[] = [],
    ) => {
      const item: OutboxItem = {
        // One key per message, kept across all its attempts: the server stores it once.
        clientMessageId: crypto.randomUUID(),
        chatId,
        text,
        replyTo,
        ...(attachments.length && { attachments }),
        ...(call && { call }),
        ...(mentions.length && { mentions }),
        queuedAt: new Date().toISOString(),
        status: 'sending',
      };
      dispatch(messageQueued(item));
    },
    [dispatch],
  );
};
