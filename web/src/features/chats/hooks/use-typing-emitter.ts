import { useCallback, useEffect, useRef } from 'react';
import { getSocket } from '../../../lib/realtime.ts';
import { typingStopDelayMs } from '../realtime-constants.ts';

/**
 * `typing` {chatId} on every keystroke, `stop typing` {chatId} after 3 s without input (or
 * at once on send). The server forwards at most one `typing` a second, so keystrokes are cheap.
 */
export const useTypingEmitter = (chatId: string) => {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const stop = useCallback(() => {
    if (timer.current === null) return;
    clearTimeout(timer.current);
    timer.current = null;
    getSocket().emit('stop typing', { chatId });
  }, [chatId]);

  const keystroke = useCallback(() => {
    const socket = getSocket();
    if (!socket.connected) return;
    socket.emit('typing', { chatId });
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      socket.emit('stop typing', { chatId });
    }, typingStopDelayMs);
  }, [chatId]);

  // Leaving the chat mid-word must not leave the others seeing "typing..." for 3 s.
  useEffect(() => stop, [stop]);

  return { keystroke, stop };
};
