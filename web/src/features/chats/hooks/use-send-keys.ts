import type { ChatView } from '@veil/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import { useAppDispatch } from '../../../app/hooks.ts';
import type { RootState } from '../../../app/hooks.ts';
import { checkedKeysOf, KeysUncheckedError, type UncheckedReason } from '../../keys/index.ts';
import { retryRequested, selectOutbox } from '../../messages/index.ts';

/** How soon logs that got no answer are fetched again. */
const recheckUnreachedMs = 5_000;

/** A member (or the account itself) whose checked key log this browser cannot seal for. */
export interface UncheckedMember {
  userId: string;
  reason: UncheckedReason;
}

/**
 * Whether the open chat can be sent to: every member's key log, the account's own included, is
 * fetched again and checked when the chat opens (a member may have reset their keys since). A
 * member whose log does not check out blocks sending (`deliver.ts` seals only for checked keys);
 * `retry` checks again and, once every log checks out, sends what was refused meanwhile.
 */
export const useSendKeys = (myId: string, chat: ChatView | undefined) => {
  const [unchecked, setUnchecked] = useState<readonly UncheckedMember[]>([]);
  const [version, setVersion] = useState(0);
  // Logs the network did not bring are no failure to show (the outbox waits for the network);
  // they are checked again when it is back.
  const [unreached, setUnreached] = useState(0);
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const chatId = chat?._id;
  const memberIds = [...new Set([myId, ...(chat?.participants ?? []).map((p) => p._id)])].join(',');

  useEffect(() => {
    if (!chatId) return;
    let live = true;
    let unreachable = false;
    const check = async (userId: string): Promise<UncheckedMember[]> => {
      try {
        await checkedKeysOf(myId, userId, { fresh: true });
        return [];
      } catch (error) {
        if (error instanceof KeysUncheckedError && error.unreachable) {
          unreachable = true;
          return [];
        }
        return [{ userId, reason: error instanceof KeysUncheckedError ? error.reason : 'unavailable' }];
      }
    };
    let again: ReturnType<typeof setTimeout> | undefined;
    void Promise.all(memberIds.split(',').map(check)).then((results) => {
      if (!live) return;
      const failed = results.flat();
      setUnchecked(failed);
      if (unreachable) again = setTimeout(() => setUnreached((n) => n + 1), recheckUnreachedMs);
      // The user asked to retry and every log checks out now: what was refused goes out.
      if (version > 0 && failed.length === 0)
        for (const item of selectOutbox(store.getState()).items)
          if (item.chatId === chatId && item.status === 'failed')
            dispatch(retryRequested(item.clientMessageId));
    });
    return () => {
      live = false;
      clearTimeout(again);
    };
  }, [myId, chatId, memberIds, version, unreached, dispatch, store]);

  const retry = useCallback(() => setVersion((v) => v + 1), []);
  return { unchecked, retry };
};
