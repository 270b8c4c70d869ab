/**
 * Which chat this tab has open, for the live counts: a message arriving there while the page is
 * visible is read at once, so it never counts as unread (and no badge flickers in the meantime).
 */
let openChatId: string | null = null;

export const setOpenChat = (chatId: string | null) => {
  openChatId = chatId;
};

export const isReadingChat = (chatId: string) =>
  openChatId === chatId && document.visibilityState === 'visible';
