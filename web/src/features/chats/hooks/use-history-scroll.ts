import { useCallback, useLayoutEffect, useRef } from 'react';
import type { DisplayMessage } from '../../messages/index.ts';

interface HistoryScrollOptions {
  container: HTMLElement | null;
  messages: readonly DisplayMessage[];
  myId: string;
  hasMore: boolean;
  onNeedOlder: (oldestSeq: number) => void;
}

/** Within this distance of an edge counts as "at" it. */
const edgePx = 80;

/**
 * Scrolling of a chat's history: start at the newest message; follow new messages when the
 * reader is at the bottom (or sent them); near the top, ask for older ones and keep the view
 * where it was once they are prepended. Browser scroll anchoring is off for the list
 * (`overflow-anchor: none`) so this is the only thing that moves it.
 */
export const useHistoryScroll = ({
  container,
  messages,
  myId,
  hasMore,
  onNeedOlder,
}: HistoryScrollOptions) => {
  const last = useRef({ first: '', newest: '', height: 0, top: 0, initialised: false });

  const askForOlder = useCallback(() => {
    const oldest = messages[0]?.seq;
    if (!container || !hasMore || oldest === undefined) return;
    const overflowing = container.scrollHeight > container.clientHeight;
    if (!overflowing || container.scrollTop < edgePx) onNeedOlder(oldest);
  }, [container, messages, hasMore, onNeedOlder]);

  useLayoutEffect(() => {
    if (!container) return;
    const before = last.current;
    const first = messages[0]?._id ?? '';
    const newest = messages.at(-1);
    const wasAtBottom = before.height - before.top - container.clientHeight < edgePx;
    if (!before.initialised && messages.length > 0) {
      container.scrollTop = container.scrollHeight;
      before.initialised = true;
    } else if (first !== before.first && newest?._id === before.newest) {
      container.scrollTop = before.top + (container.scrollHeight - before.height);
    } else if (newest && newest._id !== before.newest && (wasAtBottom || newest.sender._id === myId)) {
      container.scrollTop = container.scrollHeight;
    }
    last.current = {
      ...before,
      first,
      newest: newest?._id ?? '',
      height: container.scrollHeight,
      top: container.scrollTop,
    };
    askForOlder();
  }, [container, messages, myId, askForOlder]);

  // The list's own box changes (the header takes a second row once its buttons load, a bar
  // opens below): a reader who was at the bottom stays there.
  useLayoutEffect(() => {
    if (!container) return;
    let height = container.clientHeight;
    const observer = new ResizeObserver(() => {
      const before = last.current;
      const wasAtBottom = before.height - before.top - height < edgePx;
      height = container.clientHeight;
      if (!before.initialised || !wasAtBottom) return;
      container.scrollTop = container.scrollHeight;
      last.current = { ...before, height: container.scrollHeight, top: container.scrollTop };
    });
    observer.observe(container);
    return () => observer.disconnect();
  }, [container]);

  const onScroll = useCallback(() => {
    if (!container) return;
    last.current.top = container.scrollTop;
    last.current.height = container.scrollHeight;
    askForOlder();
  }, [container, askForOlder]);

  return { onScroll };
};
