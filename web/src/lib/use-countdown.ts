import { useEffect, useState } from 'react';

const secondsUntil = (until: number) => Math.max(0, Math.ceil((until - Date.now()) / 1000));

/** Whole seconds left until `until` (ms since the epoch), ticking while there are any. */
export const useCountdown = (until: number): number => {
  const [seconds, setSeconds] = useState(() => secondsUntil(until));
  useEffect(() => {
    setSeconds(secondsUntil(until));
    if (until <= Date.now()) return;
    const timer = setInterval(() => {
      const left = secondsUntil(until);
      setSeconds(left);
      if (left === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, [until]);
  return seconds;
};
