import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { callsView, subscribeCalls } from './call-store.ts';

/** What one-to-one and group call screens share. */

/** The screen's view of calls. */
export const useCalls = () => useSyncExternalStore(subscribeCalls, callsView);

const twoDigits = (n: number) => String(n).padStart(2, '0');
export const formatCallDuration = (seconds: number): string => {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return `${hours ? `${hours}:${twoDigits(minutes)}` : minutes}:${twoDigits(seconds % 60)}`;
};

/** Seconds since `since`, counting while mounted. */
const useElapsed = (since: number | null): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (since === null) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [since]);
  return since === null ? 0 : Math.max(0, Math.floor((now - since) / 1000));
};

/** How long a call has been connected, counting. */
export const CallTimer = ({ since }: { since: number | null }) => {
  const elapsed = useElapsed(since);
  return <time dateTime={`PT${elapsed}S`}>{formatCallDuration(elapsed)}</time>;
};

/** A video or audio element that plays `stream`. */
export const useStream = (stream: MediaStream | null) => {
  const element = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  useEffect(() => {
    if (element.current && element.current.srcObject !== stream) element.current.srcObject = stream;
  }, [stream]);
  return element;
};
