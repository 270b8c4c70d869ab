import type { ChatView } from '@veil/contracts';

/**
 * Whether a chat sits among the archived ones: archived with no message since, or archived and
 * muted in this browser (a muted chat stays archived when messages arrive, as on WhatsApp).
 */
export const isArchived = (chat: ChatView, muted: ReadonlySet<string>): boolean =>
  chat.archived === true || (chat.archivedAt !== undefined && muted.has(chat._id));

/**
 * The list as shown: the archived chats alone when they are open, else the others with the
 * pinned ones on top, each part in the server's order (most recent activity first).
 */
export const arrangeChats = (
  chats: readonly ChatView[],
  muted: ReadonlySet<string>,
  showArchived: boolean,
): { rows: ChatView[]; archivedCount: number } => {
  const archived = chats.filter((chat) => isArchived(chat, muted));
  if (showArchived) return { rows: archived, archivedCount: archived.length };
  const listed = chats.filter((chat) => !isArchived(chat, muted));
  return {
    rows: [...listed.filter((chat) => chat.pinnedAt), ...listed.filter((chat) => !chat.pinnedAt)],
    archivedCount: archived.length,
  };
};
