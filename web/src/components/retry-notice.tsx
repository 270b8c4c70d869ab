import { useTranslation } from 'react-i18next';
import { useCountdown } from '../lib/use-countdown.ts';

/** Under a load that failed: when it is tried again by itself, and a way not to wait. */
export const RetryNotice = ({ nextAt, onRetry }: { nextAt: number; onRetry: () => void }) => {
  const seconds = useCountdown(nextAt);
  const { t } = useTranslation();
  return (
    <p className="retry-notice" role="status">
      {seconds > 0 ? t('chats.retryIn', { seconds }) : t('chats.retrying')}{' '}
      <button type="button" className="link-button" onClick={onRetry}>
        {t('chats.retryNow')}
      </button>
    </p>
  );
};
