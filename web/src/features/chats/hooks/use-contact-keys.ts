import type { ChatView } from '@veil/contracts';
import { useCallback, useEffect, useState } from 'react';
import { checkContactKeys, type ContactKeys } from '../../keys/index.ts';

/**
 * The key state of every other member of the open chat, checked when the chat opens and again
 * after `recheck` (a verification changed). Members not yet checked are absent from the map.
 */
export const useContactKeys = (myId: string, chat: ChatView | undefined) => {
  const [keys, setKeys] = useState<ReadonlyMap<string, ContactKeys>>(new Map());
  const [version, setVersion] = useState(0);
  const memberIds = (chat?.participants ?? [])
    .map((p) => p._id)
    .filter((id) => id !== myId)
    .join(',');

  useEffect(() => {
    let live = true;
    const ids = memberIds ? memberIds.split(',') : [];
    void Promise.all(ids.map(async (id) => [id, await checkContactKeys(myId, id)] as const)).then(
      (checked) => live && setKeys(new Map(checked)),
    );
    return () => {
      live = false;
    };
  }, [myId, memberIds, version]);

  const recheck = useCallback(() => setVersion((v) => v + 1), []);
  return { keys, recheck };
};
