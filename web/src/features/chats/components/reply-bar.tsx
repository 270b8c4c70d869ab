import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../../components/icons.tsx';
import { type DisplayMessage, replyPreview } from '../../messages/index.ts';

/** "Replying to:" and the first 30 characters of the chosen message; X clears it. */
export const ReplyBar = ({ message, onClear }: { message: DisplayMessage; onClear: () => void }) => {
  const { t } = useTranslation();
  return (
    <div className="reply-bar" data-testid="reply-bar">
      <span className="reply-bar__label">{t('messages.replyingTo')}</span>
      <span className="reply-bar__text">{replyPreview(message.decryptedContent)}</span>
      <button type="button" className="icon-button" aria-label={t('messages.cancelReply')} onClick={onClear}>
        <CloseIcon />
      </button>
    </div>
  );
};
