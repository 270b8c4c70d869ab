import { useEffect, useRef } from 'react';
import type { DisplayMessage } from '../../messages/index.ts';

interface JumpOptions {
  container: HTMLElement | null;
  messages: readonly DisplayMessage[];
  hasMore: boolean;
  /** The message to show (a search result); undefined: none. */
  messageId: string | undefined;
  /** Its position in the chat's history, when known: older pages load until it is reached. */
  seq: number | undefined;
  loadOlder: (oldestSeq: number) => Promise<void> | void;
}

/**
 * Opens the chat at one message: loads older pages until it is in the history (the pages
 * between it and the newest stay loaded around it), then scrolls it to the middle, marks it and
 * moves the focus to it. Once per message id.
 */
export const useJumpToMessage = ({
  container,
  messages,
  hasMore,
  messageId,
  seq,
  loadOlder,
}: JumpOptions) => {
  const done = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!container || !messageId || done.current === messageId || messages.length === 0) return;
    const element = container.querySelector<HTMLElement>(`[data-message-id="${CSS.escape(messageId)}"]`);
    if (element) {
      done.current = messageId;
      element.scrollIntoView({ block: 'center' });
      element.classList.add('message--found');
      element.tabIndex = -1;
      element.focus({ preventScroll: true });
      return;
    }
    const oldest = messages[0]!.seq;
    // Older than what is loaded (or of unknown place): the page before the oldest; else it is gone.
    if (hasMore && (seq === undefined || seq < oldest)) void loadOlder(oldest);
    else done.current = messageId;
  }, [container, messages, hasMore, messageId, seq, loadOlder]);
};
