import { useCountdown } from '../lib/use-countdown.ts';

/** Under a load that failed: when it is tried again by itself, and a way not to wait. */
export const RetryNotice = ({ nextAt, onRetry }: { nextAt: number; onRetry: () => void }) => {
  const seconds = useCountdown(nextAt);
  return (
    <p className="retry-notice" role="status">
      {seconds > 0 ? `Trying again in ${seconds} s…` : 'Trying again…'}{' '}
      <button type="button" className="link-button" onClick={onRetry}>
        Try now
      </button>
    </p>
  );
};
