import type { MessageEditedNotice, MessageRef, ReactionNotice } from '@veil/contracts';
import { readSealedForUser, type DisplayMessage } from '../../../lib/crypto.ts';
import type { VeilSocket } from '../../../lib/realtime.ts';
import { changeMessage, edited, reacted, tombstone, withoutMessage } from '../message-changes.ts';
import { forgetPreview } from '../previews.ts';

export type HistoryChange = (messages: DisplayMessage[]) => DisplayMessage[];

/**
 * Follows the changes to one chat's messages on the shared socket (edits, deletions for
 * everyone, deletions for me on another device, expiries, reactions), decrypting what they carry for
 * `userId`, and hands each to `apply` as a change of the history. Returns the unsubscribe.
 */
export const followMessageChanges = (
  socket: VeilSocket,
  chatId: string,
  userId: string,
  apply: (change: HistoryChange) => void,
): (() => void) => {
  const onEdited = async (notice: MessageEditedNotice) => {
    if (notice.chatId !== chatId) return;
    const { content, iv, encryptedKeys, editedAt } = notice;
    const read = await readSealedForUser(notice, editedAt, userId);
    apply((messages) =>
      changeMessage(messages, notice.messageId, (m) =>
        edited(m, { content, iv, encryptedKeys, editedAt, ...read }),
      ),
    );
  };
  const onDeleted = (notice: MessageRef) => {
    if (notice.chatId === chatId) apply((messages) => changeMessage(messages, notice.messageId, tombstone));
  };
  const onHidden = (notice: MessageRef) => {
    if (notice.chatId === chatId) apply((messages) => withoutMessage(messages, notice.messageId));
  };
  const onExpired = (notice: MessageRef) => {
    if (notice.chatId !== chatId) return;
    forgetPreview(notice.messageId);
    apply((messages) => withoutMessage(messages, notice.messageId));
  };
  const onReaction = async (notice: ReactionNotice) => {
    if (notice.chatId !== chatId) return;
    const read = notice.reaction && (await readSealedForUser(notice.reaction, '', userId));
    const emoji = read?.readState === 'read' ? read.decryptedContent : null;
    apply((messages) => changeMessage(messages, notice.messageId, (m) => reacted(m, notice.userId, emoji)));
  };
  const handlers = {
    'message edited': (notice: MessageEditedNotice) => void onEdited(notice),
    'message deleted': onDeleted,
    'message hidden': onHidden,
    'message expired': onExpired,
    reaction: (notice: ReactionNotice) => void onReaction(notice),
  };
  socket.on('message edited', handlers['message edited']);
  socket.on('message deleted', handlers['message deleted']);
  socket.on('message hidden', handlers['message hidden']);
  socket.on('message expired', handlers['message expired']);
  socket.on('reaction', handlers.reaction);
  return () => {
    socket.off('message edited', handlers['message edited']);
    socket.off('message deleted', handlers['message deleted']);
    socket.off('message hidden', handlers['message hidden']);
    socket.off('message expired', handlers['message expired']);
    socket.off('reaction', handlers.reaction);
  };
};
