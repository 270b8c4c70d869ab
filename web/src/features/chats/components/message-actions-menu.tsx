import { useTranslation } from 'react-i18next';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { MoreIcon } from '../../../components/icons.tsx';

/** The reactions offered at one click; any other emoji can be typed in. */
export const quickReactions = ['👍', '❤️', '😂', '😮', '😢', '🙏'] as const;

export interface MessageMenuActions {
  onReply?: () => void;
  onReact?: (emoji: string) => void;
  onCopy?: () => void;
  onForward?: () => void;
  onEdit?: () => void;
  onDeleteForMe: () => void;
  onDeleteForEveryone?: () => void;
  /** Reports it to the server's operators (others' messages a report can verify). */
  onReport?: () => void;
}

interface MessageActionsMenuProps extends MessageMenuActions {
  /** Names the message for assistive tech: "message from Bob at 10:42". */
  label: string;
}

/** Room the menu needs above its button; a message near the top opens it below instead. */
const menuHeight = 320;

/**
 * Whether the menu fits above the button inside the scrolled message list: what sticks out above
 * a scroll container can never be scrolled to, what sticks out below can.
 */
const hasRoomAbove = (button: HTMLElement | null) => {
  const list = button?.closest('.message-list');
  if (!button || !list) return true;
  return button.getBoundingClientRect().top - list.getBoundingClientRect().top > menuHeight;
};

/** Moves focus between the menu's items with the arrow keys, Home and End. */
const moveFocus = (event: KeyboardEvent<HTMLElement>) => {
  const items = [...event.currentTarget.querySelectorAll<HTMLElement>('[role="menuitem"]')];
  const at = items.indexOf(document.activeElement as HTMLElement);
  const next = {
    ArrowDown: at + 1,
    ArrowRight: at + 1,
    ArrowUp: at - 1,
    ArrowLeft: at - 1,
    Home: 0,
    End: -1,
  }[event.key];
  if (next === undefined || !items.length) return;
  event.preventDefault();
  items.at(next % items.length)?.focus();
};

/**
 * A message's actions: react, reply, copy, edit, delete. A button named after the message opens
 * a menu; the arrow keys move through it, Escape closes it and gives focus back to the button.
 * Actions the message does not allow (editing someone else's) are not offered.
 */
export const MessageActionsMenu = ({ label, ...actions }: MessageActionsMenuProps) => {
  const [open, setOpen] = useState(false);
  const [below, setBelow] = useState(false);
  const { t } = useTranslation();
  const [customEmoji, setCustomEmoji] = useState('');
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();

  const close = (refocus = true) => {
    setOpen(false);
    setCustomEmoji('');
    if (refocus) trigger.current?.focus();
  };
  const run = (action: (() => void) | undefined) => () => {
    close();
    action?.();
  };

  useEffect(() => {
    if (!open) return;
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const outside = (event: PointerEvent) => {
      if (!menu.current?.contains(event.target as Node) && event.target !== trigger.current) close(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const react = (emoji: string) => run(() => actions.onReact?.(emoji))();

  return (
    <div className="message-actions">
      <button
        ref={trigger}
        type="button"
        className="icon-button message-actions__trigger"
        aria-label={t('messages.actionsFor', { label })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => {
          if (open) return close();
          setBelow(!hasRoomAbove(trigger.current));
          setOpen(true);
        }}
      >
        <MoreIcon />
      </button>
      {open && (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={t('messages.actionsFor', { label })}
          className={`message-actions__menu${below ? ' message-actions__menu--below' : ''}`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              close();
            } else if ((event.target as HTMLElement).tagName !== 'INPUT') moveFocus(event);
          }}
        >
          {actions.onReact && (
            <>
              <div className="message-actions__reactions" role="group" aria-label={t('messages.react')}>
                {quickReactions.map((emoji) => (
                  <button
                    key={emoji}
                    type="button"
                    role="menuitem"
                    className="message-actions__emoji"
                    aria-label={t('messages.reactWith', { emoji })}
                    onClick={() => react(emoji)}
                  >
                    {emoji}
                  </button>
                ))}
              </div>
              <form
                className="message-actions__custom"
                onSubmit={(event) => {
                  event.preventDefault();
                  const emoji = customEmoji.trim();
                  if (emoji) react(emoji);
                }}
              >
                <input
                  type="text"
                  aria-label={t('messages.anyEmoji')}
                  placeholder={t('messages.anyEmoji')}
                  maxLength={16}
                  value={customEmoji}
                  onChange={(event) => setCustomEmoji(event.target.value)}
                />
                <button type="submit" className="button" disabled={!customEmoji.trim()}>
                  {t('messages.react')}
                </button>
              </form>
            </>
          )}
          {actions.onReply && <MenuItem onClick={run(actions.onReply)}>{t('messages.reply')}</MenuItem>}
          {actions.onCopy && <MenuItem onClick={run(actions.onCopy)}>{t('messages.copy')}</MenuItem>}
          {actions.onForward && <MenuItem onClick={run(actions.onForward)}>{t('messages.forward')}</MenuItem>}
          {actions.onEdit && <MenuItem onClick={run(actions.onEdit)}>{t('messages.edit')}</MenuItem>}
          <MenuItem onClick={run(actions.onDeleteForMe)}>{t('messages.deleteForMe')}</MenuItem>
          {actions.onReport && (
            <MenuItem onClick={run(actions.onReport)} danger>
              {t('report.action')}
            </MenuItem>
          )}
          {actions.onDeleteForEveryone && (
            <MenuItem onClick={run(actions.onDeleteForEveryone)} danger>
              {t('messages.deleteForEveryone')}
            </MenuItem>
          )}
        </div>
      )}
    </div>
  );
};

const MenuItem = ({
  onClick,
  danger,
  children,
}: {
  onClick: () => void;
  danger?: boolean;
  children: string;
}) => (
  <button
    type="button"
    role="menuitem"
    className={`message-actions__item${danger ? ' message-actions__item--danger' : ''}`}
    onClick={onClick}
  >
    {children}
  </button>
);
