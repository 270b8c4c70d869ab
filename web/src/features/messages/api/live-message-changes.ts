import type {
  MessageDeletedNotice,
  MessageEditedNotice,
  MessageRef,
  ReactionNotice,
  SealedReaction,
} from '@veil/contracts';
import { heldToWhatWasRead, readSealedForUser } from '../crypto.ts';
import { type DisplayMessage } from '../display-message.ts';
import { type Verification, unverifiedDeletionText, unverifiedText } from '../../keys/index.ts';
import type { VeilSocket } from '../../../lib/realtime.ts';
import { changeMessage, edited, reacted, tombstone, withoutMessage } from '../message-changes.ts';
import { forgetPreview } from '../previews.ts';

export type HistoryChange = (messages: DisplayMessage[]) => DisplayMessage[];

/** How live changes are checked against the message they change, before they show. */
export interface ChangeChecks {
  /** An edit's signature (undefined: the message is not loaded here). */
  checkEdit(notice: MessageEditedNotice): Promise<Verification | undefined>;
  /** Whether a reaction is its member's. */
  checkReaction(notice: ReactionNotice & { reaction: SealedReaction }): Promise<boolean>;
  /** Whether taking a reaction back is its member's (false: the reaction stays). */
  checkRemoval(notice: ReactionNotice & { reaction: null }): Promise<boolean>;
  /** A deletion for everyone's signature, by the message's sender. */
  checkDelete(notice: MessageDeletedNotice): Promise<Verification | undefined>;
}

/**
 * Follows the changes to one chat's messages on the shared socket (edits, deletions for
 * everyone, deletions for me on another device, expiries, reactions), decrypting what they
 * carry for `userId`, and hands each to `apply` as a change of the history. Each is checked
 * against the message it changes (`checks`: its signature) before it shows. Returns the
 * unsubscribe.
 */
export const followMessageChanges = (
  socket: VeilSocket,
  chatId: string,
  userId: string,
  apply: (change: HistoryChange) => void,
  { checkEdit, checkReaction, checkRemoval, checkDelete }: ChangeChecks,
): (() => void) => {
  const onEdited = async (notice: MessageEditedNotice) => {
    if (notice.chatId !== chatId) return;
    const { content, iv, encryptedKeys, editedAt, signature } = notice;
    const [read, checked] = await Promise.all([
      readSealedForUser(notice, editedAt, userId),
      checkEdit(notice),
    ]);
    // A two-faced edit, or one made unreportable, fails however well its signature holds.
    const { keyCommitment, ...readText } = read;
    const verification = await heldToWhatWasRead(checked, signature, keyCommitment, readText);
    const shown =
      verification?.status === 'failed'
        ? { decryptedContent: unverifiedText(verification.reason), readState: 'unverified' as const }
        : readText;
    apply((messages) =>
      changeMessage(messages, notice.messageId, (m) =>
        edited(m, {
          content,
          iv,
          encryptedKeys,
          editedAt,
          ...shown,
          ...(verification && { verification }),
          ...(signature && { editSignature: signature }),
        }),
      ),
    );
  };
  const onDeleted = async (notice: MessageDeletedNotice) => {
    if (notice.chatId !== chatId) return;
    const verification = await checkDelete(notice);
    const checked = {
      ...(notice.signature && { deleteSignature: notice.signature }),
      ...(verification && { verification }),
      ...(verification?.status === 'failed' && {
        decryptedContent: unverifiedDeletionText(verification.reason),
        readState: 'unverified' as const,
      }),
    };
    apply((messages) => changeMessage(messages, notice.messageId, (m) => ({ ...tombstone(m), ...checked })));
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
    const { reaction } = notice;
    // A removal that is not its member's changes nothing: the reaction shown stays.
    if (!reaction && !(await checkRemoval({ ...notice, reaction }))) return;
    const [read, genuine] = reaction
      ? await Promise.all([readSealedForUser(reaction, '', userId), checkReaction({ ...notice, reaction })])
      : [null, false];
    const emoji = read?.readState === 'read' && genuine ? read.decryptedContent : null;
    apply((messages) => changeMessage(messages, notice.messageId, (m) => reacted(m, notice.userId, emoji)));
  };
  const handlers = {
    'message edited': (notice: MessageEditedNotice) => void onEdited(notice),
    'message deleted': (notice: MessageDeletedNotice) => void onDeleted(notice),
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
