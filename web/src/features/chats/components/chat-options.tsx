import type { ChatView, PublicUser } from '@veil/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BlockButton } from '../../../components/block-button.tsx';
import { ChatListPrefs } from './chat-list-prefs.tsx';

/**
 * The chat header's menu: pin, archive and, in a one-to-one chat, block; on a phone also the
 * safety number (`onVerify`), whose header button gives its room to the call buttons there. A
 * disclosure (a button that shows and hides its options), closed with Escape or a click elsewhere.
 */
export const ChatOptions = ({
  chat,
  other,
  onVerify,
}: {
  chat: ChatView;
  other: PublicUser | undefined;
  onVerify?: () => void;
}) => {
  const [open, setOpen] = useState(false);
  const { t } = useTranslation();
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.removeEventListener('pointerdown', closeOutside);
      document.removeEventListener('keydown', closeOnEscape);
    };
  }, [open]);
  return (
    <div className="chat-options" ref={root}>
      <button
        type="button"
        className="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((shown) => !shown)}
      >
        {t('chatList.options')}
      </button>
      <div className="chat-options__panel" id={panelId} hidden={!open}>
        {onVerify && (
          <button
            type="button"
            className="button chat-options__phone-only"
            onClick={() => {
              setOpen(false);
              onVerify();
            }}
          >
            {t('chats.verify')}
          </button>
        )}
        <ChatListPrefs chat={chat} />
        {other && <BlockButton user={other} />}
      </div>
    </div>
  );
};
