import { useTranslation } from 'react-i18next';
import type { ChatView } from '@veil/contracts';
import { uncheckedReasonText } from '../../keys/index.ts';
import type { UncheckedMember } from '../hooks/use-send-keys.ts';

interface KeyCheckBlockProps {
  chat: ChatView;
  myId: string;
  unchecked: readonly UncheckedMember[];
  onRetry: () => void;
}

/**
 * Sending is blocked: a member's key log (or the account's own) could not be checked, so there
 * is no key this browser will seal for. Says whose and why, with a way to check again.
 */
export const KeyCheckBlock = ({ chat, myId, unchecked, onRetry }: KeyCheckBlockProps) => {
  const { t } = useTranslation();
  if (unchecked.length === 0) return null;
  const nameOf = (id: string) => chat.participants.find((member) => member._id === id)?.username;
  return (
    <div
      className="form__error chat-window__notice key-check-block"
      role="alert"
      data-testid="key-check-block"
    >
      {unchecked.map(({ userId, reason }) => (
        <p key={userId}>
          {userId === myId
            ? t('keyCheck.own', { reason: uncheckedReasonText(reason) })
            : t('keyCheck.contact', {
                name: nameOf(userId) ?? t('common.someone'),
                reason: uncheckedReasonText(reason),
              })}
        </p>
      ))}
      <p>{t('keyCheck.blocked')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('keyCheck.retry')}
      </button>
    </div>
  );
};
