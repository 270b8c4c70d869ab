import { useTranslation } from 'react-i18next';

/**
 * At the top of the chat list: "Archived (n)" opens the archived chats in its place; while they
 * are open, "Back to chats" closes them (docs/web.md, "Archive and pins").
 */
export const ArchivedEntry = ({
  count,
  open,
  onToggle,
}: {
  count: number;
  open: boolean;
  onToggle: () => void;
}) => {
  const { t } = useTranslation();
  if (!open && count === 0) return null;
  return (
    <button type="button" className="button archived-entry" aria-expanded={open} onClick={onToggle}>
      {open ? t('chatList.backToChats') : t('chatList.archived', { count })}
    </button>
  );
};
