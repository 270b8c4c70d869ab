import { openAccountVault, type AccountVault } from '../../../lib/account-vault.ts';
import { draftStore } from '../../../lib/vault-store.ts';

/** How long typing rests before the drafts are sealed and stored again. */
const saveDelayMs = 400;

interface OpenDrafts {
  userId: string;
  /** Chat id → unsent text; empty drafts are not kept. */
  texts: Map<string, string>;
  vault: AccountVault | null;
}

let opened: { userId: string; drafts: Promise<OpenDrafts> } | undefined;
let saveTimer: ReturnType<typeof setTimeout> | undefined;
let saveNow: (() => void) | undefined;

const parse = (saved: string | null): Map<string, string> => {
  try {
    const texts: unknown = saved ? JSON.parse(saved) : {};
    return new Map(
      Object.entries(texts as Record<string, unknown>).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== '',
      ),
    );
  } catch {
    return new Map();
  }
};

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

/** The unsent text of a chat ('' when there is none). */
export const loadDraft = async (userId: string, chatId: string): Promise<string> =>
  (await draftsOf(userId)).texts.get(chatId) ?? '';

/** Keeps a chat's unsent text ('' forgets it); stored once typing rests, and before the page goes. */
export const keepDraft = (userId: string, chatId: string, text: string) =>
  void draftsOf(userId).then((drafts) => {
    if ((drafts.texts.get(chatId) ?? '') === text) return;
    if (text) drafts.texts.set(chatId, text);
    else drafts.texts.delete(chatId);
    clearTimeout(saveTimer);
    saveNow = () => {
      clearTimeout(saveTimer);
      saveNow = undefined;
      void drafts.vault?.save(JSON.stringify(Object.fromEntries(drafts.texts))).catch(() => {
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
