import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A group message from someone this account blocked: collapsed to "Blocked user" until shown
 * (docs/web.md, "Blocking"). Showing is for this view only; the next visit collapses it again.
 */
export const BlockedMessage = ({
  messageId,
  collapsed,
  children,
}: {
  messageId: string;
  collapsed: boolean;
  children: ReactNode;
}) => {
  const [shown, setShown] = useState(false);
  const { t } = useTranslation();
  if (!collapsed || shown) return children;
  return (
    <li
      className="message message--theirs message--blocked"
      data-message-id={messageId}
      data-testid="blocked-message"
    >
      <div className="message__bubble">
        <span>{t('blocking.blockedUser')}</span>
        <button type="button" className="button" onClick={() => setShown(true)}>
          {t('blocking.show')}
        </button>
      </div>
    </li>
  );
};
