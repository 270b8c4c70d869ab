import { useCallback, useEffect, useState } from 'react';
import type { MentionedText } from '../mentions/index.ts';
import { keepDraft, loadDraft } from './drafts.ts';

/** A chat's draft: undefined while it loads, then its text and mentions; `keep` stores what the composer holds. */
export const useDraft = (userId: string, chatId: string) => {
  const [loaded, setLoaded] = useState<{ chatId: string; draft: MentionedText }>();
  useEffect(() => {
    let live = true;
    void loadDraft(userId, chatId).then((draft) => live && setLoaded({ chatId, draft }));
    return () => {
      live = false;
    };
  }, [userId, chatId]);
  const keep = useCallback((draft: MentionedText) => keepDraft(userId, chatId, draft), [userId, chatId]);
  return { draft: loaded?.chatId === chatId ? loaded.draft : undefined, keep };
};
