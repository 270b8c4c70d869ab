import { useCallback, useEffect, useState } from 'react';
import { keepDraft, loadDraft } from './drafts.ts';

/** A chat's draft: undefined while it loads, then its text; `keep` stores what the composer holds. */
export const useDraft = (userId: string, chatId: string) => {
  const [loaded, setLoaded] = useState<{ chatId: string; text: string }>();
  useEffect(() => {
    let live = true;
    void loadDraft(userId, chatId).then((text) => live && setLoaded({ chatId, text }));
    return () => {
      live = false;
    };
  }, [userId, chatId]);
  const keep = useCallback((text: string) => keepDraft(userId, chatId, text), [userId, chatId]);
  return { text: loaded?.chatId === chatId ? loaded.text : undefined, keep };
};
