import { sanitizeMentions } from '@veil/crypto';
import { openAccountVault, type AccountVault, draftStore } from '../keys/index.ts';
import type { MentionedText } from '../mentions/index.ts';

/** How long typing rests before the drafts are sealed and stored again. */
const saveDelayMs = 400;

interface OpenDrafts {
  userId: string;
  /** Chat id → unsent text and the members picked in it; empty drafts are not kept. */
  texts: Map<string, MentionedText>;
  vault: AccountVault | null;
}

let opened: { userId: string; drafts: Promise<OpenDrafts> } | undefined;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let saveNow: (() => void) | undefined;

const noDraft: MentionedText = { text: '', mentions: [] };

/** A stored draft: its text alone (as drafts were first kept), or the text with its mentions. */
const draftOf = (stored: unknown): MentionedText | null => {
  if (typeof stored === 'string') return stored ? { text: stored, mentions: [] } : null;
  const draft = stored as Partial<MentionedText> | null;
  if (!draft || typeof draft.text !== 'string' || !draft.text) return null;
  return { text: draft.text, mentions: sanitizeMentions(draft.mentions, draft.text) };
};

const parse = (saved: string | null): Map<string, MentionedText> => {
  try {
    const texts: unknown = saved ? JSON.parse(saved) : {};
    return new Map(
      Object.entries(texts as Record<string, unknown>).flatMap(([chatId, stored]) => {
        const draft = draftOf(stored);
        return draft ? [[chatId, draft] as const] : [];
      }),
    );
  } catch {
    return new Map();
  }
};

/** What is stored of a draft: the text alone while it names nobody. */
const storedOf = ({ text, mentions }: MentionedText) => (mentions.length ? { text, mentions } : text);

const sameDraft = (a: MentionedText, b: MentionedText) =>
  a.text === b.text && JSON.stringify(a.mentions) === JSON.stringify(b.mentions);

/**
 * The account's drafts in this browser, opened once: encrypted at rest like the search index
 * (a vault key wrapped with the account's public key). Without a key here they live in memory
 * for the page only.
 */
const draftsOf = (userId: string): Promise<OpenDrafts> => {
  if (opened?.userId !== userId) {
    saveNow?.();
    const drafts = openAccountVault(userId, draftStore)
      .catch(() => null)
      .then((vault) => ({ userId, vault, texts: parse(vault?.saved ?? null) }));
    opened = { userId, drafts };
  }
  return opened.drafts;
};

/** The unsent text of a chat and its mentions (an empty text when there is none). */
export const loadDraft = async (userId: string, chatId: string): Promise<MentionedText> =>
  (await draftsOf(userId)).texts.get(chatId) ?? noDraft;

/** Keeps a chat's unsent text and its mentions (an empty text forgets it); stored once typing rests, and before the page goes. */
export const keepDraft = (userId: string, chatId: string, draft: MentionedText) =>
  void draftsOf(userId).then((drafts) => {
    if (sameDraft(drafts.texts.get(chatId) ?? noDraft, draft)) return;
    if (draft.text) drafts.texts.set(chatId, draft);
    else drafts.texts.delete(chatId);
    clearTimeout(saveTimer);
    saveNow = () => {
      clearTimeout(saveTimer);
      saveNow = undefined;
      const stored = Object.fromEntries([...drafts.texts].map(([chatId, kept]) => [chatId, storedOf(kept)]));
      void drafts.vault?.save(JSON.stringify(stored)).catch(() => {
        // Not stored this time (storage full or gone): the page keeps them in memory meanwhile.
      });
    };
    saveTimer = setTimeout(saveNow, saveDelayMs);
  });

// A tab put away or closed stores what is waiting at once (its sealing may still be cut short).
if (typeof window !== 'undefined') {
  window.addEventListener('pagehide', () => saveNow?.());
  document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && saveNow?.());
}
