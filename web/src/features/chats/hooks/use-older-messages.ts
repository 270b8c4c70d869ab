import { current } from '@reduxjs/toolkit';
import { useCallback, useRef, useState } from 'react';
import { useAppDispatch } from '../../../app/hooks.ts';
import { messagesApi, type HistoryArgs, mergeMessages } from '../../messages/index.ts';

/** Loads the page before `oldest` into the open chat's history (scrolling up). One at a time. */
export const useOlderMessages = (args: HistoryArgs) => {
  const dispatch = useAppDispatch();
  const [loading, setLoading] = useState(false);
  const busy = useRef(false);
  const { chatId, userId } = args;

  const loadOlder = useCallback(
    async (oldest: number) => {
      if (busy.current) return;
      busy.current = true;
      setLoading(true);
      try {
        const page = await dispatch(
          messagesApi.endpoints.getMessagePage.initiate(
            { chatId, userId, before: oldest },
            { subscribe: false, forceRefetch: true },
          ),
        );
        if (!page.data) return void console.error('Could not load older messages', page.error);
        const { messages, hasMore } = page.data;
        dispatch(
          messagesApi.util.updateQueryData('getMessages', { chatId, userId }, (draft) => {
            draft.messages = mergeMessages(current(draft).messages, messages);
            draft.hasMore = hasMore;
          }),
        );
      } finally {
        busy.current = false;
        setLoading(false);
      }
    },
    [dispatch, chatId, userId],
  );

  return { loadOlder, loading };
};
