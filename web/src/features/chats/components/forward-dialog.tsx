import { useTranslation } from 'react-i18next';
import type { ChatView } from '@veil/contracts';
import { useId, useState } from 'react';
import { Avatar } from '../../../components/avatar.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useGetChatsQuery, chatTitle, replyPreview } from '../../messages/index.ts';

interface ForwardDialogProps {
  text: string;
  /** Resolves true once forwarded. */
  onForward: (to: ChatView) => Promise<boolean>;
  onClose: () => void;
}

/** Picks the chat a message goes to; it is encrypted anew for that chat's members. */
export const ForwardDialog = ({ text, onForward, onClose }: ForwardDialogProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  const { data: chats, isLoading } = useGetChatsQuery();
  const [sending, setSending] = useState<string | null>(null);

  const forward = async (chat: ChatView) => {
    setSending(chat._id);
    if (await onForward(chat)) onClose();
    else setSending(null);
  };

  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className="panel group-info">
      <h2 id={titleId}>{t('messages.forwardTitle')}</h2>
      <blockquote className="message__quote">{replyPreview(text)}</blockquote>
      {isLoading ? (
        <Spinner label={t('chats.loading')} />
      ) : (
        <ul className="group-info__members" aria-label={t('chats.heading')}>
          {(chats ?? []).map((chat) => {
            const title = chatTitle(chat);
            return (
              <li key={chat._id}>
                <button
                  type="button"
                  className="chat-item"
                  disabled={sending !== null}
                  aria-label={t('messages.forwardTo', { name: title })}
                  onClick={() => void forward(chat)}
                >
                  <Avatar
                    name={title}
                    picture={chat.isGroupChat ? chat.groupPicture : chat.participants[0]?.profilePicture}
                    size="sm"
                  />
                  <span className="chat-item__title">{title}</span>
                  {sending === chat._id && <Spinner label={t('messages.forwarding')} />}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <div className="form__actions">
        <button type="button" className="button" onClick={onClose}>
          {t('common.cancel')}
        </button>
      </div>
    </ModalDialog>
  );
};
