import { useCallback, useEffect, useRef } from 'react';
import { getSocket } from '../../../lib/realtime.ts';
import { seenReportIntervalMs, seenVisibilityThreshold } from '../realtime-constants.ts';

/**
 * Read receipts (docs/web.md, "Realtime"): another member's message counts as seen once at least half
 * of it is visible; those ids are collected and sent as one `message seen` array every 2 s.
 * Returns a ref callback for each unseen message element, and `reportNow` for a message that
 * arrives while the chat is open (reported at once).
 */
export const useSeenReporter = (chatId: string, root: HTMLElement | null) => {
  const pending = useRef(new Set<string>());
  const reported = useRef(new Set<string>());
  const observer = useRef<IntersectionObserver | null>(null);
  const observed = useRef(new Map<string, Element>());

  const emit = useCallback(
    (ids: string[]) => {
      const socket = getSocket();
      if (ids.length === 0 || !socket.connected) return false;
      socket.emit(
        'message seen',
        ids.map((messageId) => ({ chatId, messageId })),
      );
      ids.forEach((id) => reported.current.add(id));
      return true;
    },
    [chatId],
  );

  useEffect(() => {
    if (!root) return;
    const io = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const id = (entry.target as HTMLElement).dataset.messageId;
          if (!id || entry.intersectionRatio < seenVisibilityThreshold || reported.current.has(id)) continue;
          pending.current.add(id);
          io.unobserve(entry.target);
        }
      },
      { root, threshold: seenVisibilityThreshold },
    );
    observer.current = io;
    observed.current.forEach((element) => io.observe(element));
    const flush = setInterval(() => {
      const ids = [...pending.current];
      if (emit(ids)) pending.current.clear();
    }, seenReportIntervalMs);
    return () => {
      clearInterval(flush);
      io.disconnect();
      observer.current = null;
      // Seen but not yet sent when the chat closes: send now rather than lose them.
      if (emit([...pending.current])) pending.current.clear();
    };
  }, [root, emit]);

  /** Ref callback for a message from someone else that this user has not seen yet. */
  const track = useCallback((messageId: string, element: Element | null) => {
    const previous = observed.current.get(messageId);
    if (previous) observer.current?.unobserve(previous);
    observed.current.delete(messageId);
    if (!element || reported.current.has(messageId)) return;
    observed.current.set(messageId, element);
    observer.current?.observe(element);
  }, []);

  const reportNow = useCallback(
    (messageId: string) => {
      if (reported.current.has(messageId)) return;
      pending.current.delete(messageId);
      emit([messageId]);
    },
    [emit],
  );

  return { track, reportNow };
};
