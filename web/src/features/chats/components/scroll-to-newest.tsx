import { useTranslation } from 'react-i18next';
import { useEffect, useState } from 'react';
import { ArrowDownIcon } from '../../../components/icons.tsx';
import { badgeText } from '../chat-summary.model.ts';

/** Further than this from the bottom, the reader is looking at older messages. */
const awayPx = 160;

interface ScrollToNewestProps {
  container: HTMLElement | null;
  /** Others' messages this user has not seen yet (they are below the view). */
  unseen: number;
}

/** A button over the history, shown while the reader is away from the newest messages. */
export const ScrollToNewest = ({ container, unseen }: ScrollToNewestProps) => {
  const [away, setAway] = useState(false);
  const { t } = useTranslation();
  useEffect(() => {
    if (!container) return;
    const update = () =>
      setAway(container.scrollHeight - container.scrollTop - container.clientHeight > awayPx);
    update();
    container.addEventListener('scroll', update, { passive: true });
    return () => container.removeEventListener('scroll', update);
  }, [container]);
  if (!container || !away) return null;
  const label =
    unseen > 0 ? t('messages.scrollToNewestUnread', { count: unseen }) : t('messages.scrollToNewest');
  return (
    <button
      type="button"
      className="scroll-to-newest"
      aria-label={label}
      onClick={() =>
        container.scrollTo({
          top: container.scrollHeight,
          behavior: matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth',
        })
      }
    >
      <ArrowDownIcon />
      {unseen > 0 && <span className="scroll-to-newest__count">{badgeText(unseen)}</span>}
    </button>
  );
};
