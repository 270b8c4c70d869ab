import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { selectKeysVersion } from '../keys/index.ts';
import { onSearchStatus, searchMessages, searchStatus, startSearchIndexer } from './search-indexer.ts';

/** Keeps the signed-in account's search index in this browser (again once a key is restored here). */
export const useSearchIndexer = (userId: string | undefined): void => {
  const dispatch = useAppDispatch();
  const keysVersion = useAppSelector(selectKeysVersion);
  useEffect(() => {
    if (!userId) return;
    let live = true;
    let stop: (() => void) | undefined;
    void startSearchIndexer(userId, dispatch).then((stopIndexer) => {
      if (live) stop = stopIndexer;
      else stopIndexer();
    });
    return () => {
      live = false;
      stop?.();
    };
  }, [userId, keysVersion, dispatch]);
};

/** The index's state, and the matches for `query` (kept current as the index changes). */
export const useMessageSearch = (query: string) => {
  const status = useSyncExternalStore(onSearchStatus, searchStatus);
  const hits = useMemo(
    () => (status.ready && query.trim() ? searchMessages(query) : []),
    // `status` changes whenever the index does: the hits follow it.
    [query, status],
  );
  return { status, hits };
};
