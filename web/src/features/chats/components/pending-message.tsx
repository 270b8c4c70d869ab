import { useTranslation } from 'react-i18next';
import { useEffect, useRef } from 'react';
import { LinkifiedText } from '../../../components/linkified-text.tsx';
import type { OutboxItem } from '../../messages/index.ts';

interface PendingMessageProps {
  item: OutboxItem;
  onRetry: (clientMessageId: string) => void;
  onDiscard: (clientMessageId: string) => void;
}

/**
 * A message of the outbox at the end of its chat: "Sending…" ("Waiting for network…" once a try
 * got no answer), or "Not sent" with Retry and Discard.
 */
export const PendingMessage = ({ item, onRetry, onDiscard }: PendingMessageProps) => {
  const row = useRef<HTMLLIElement>(null);
  useEffect(() => {
    row.current?.scrollIntoView({ block: 'nearest' });
  }, []);
  const failed = item.status === 'failed';
  const { t } = useTranslation();
  return (
    <li
      ref={row}
      className={`message message--mine message--pending ${failed ? 'message--failed' : ''}`}
      data-testid="pending-message"
      data-status={item.status}
    >
      <div className="message__bubble">
        <p className="message__text" dir="auto">
          <LinkifiedText text={item.text} />
        </p>
        <span className="message__meta">
          {failed ? (
            <span role="alert">{t('messages.notSent', { error: item.error })}</span>
          ) : (
            <span>{item.waiting ? t('messages.waitingForNetwork') : t('messages.sending')}</span>
          )}
        </span>
        {failed && (
          <span className="message__pending-actions">
            <button type="button" className="link-button" onClick={() => onRetry(item.clientMessageId)}>
              {t('messages.retry')}
            </button>
            <button type="button" className="link-button" onClick={() => onDiscard(item.clientMessageId)}>
              {t('messages.discard')}
            </button>
          </span>
        )}
      </div>
    </li>
  );
};
