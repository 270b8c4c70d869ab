import { useTranslation } from 'react-i18next';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useAppSelector } from '../../../app/hooks.ts';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { useGetChatsQuery, useGetUnreadQuery } from '../../messages/index.ts';
import { useGetPresenceQuery } from '../api/presence.api.ts';
import { useGroupUpdates } from '../hooks/use-group-updates.ts';
import { ChatList } from './chat-list.tsx';
import { ChatListButton } from './chat-list-button.tsx';
import { ChatWindow } from './chat-window.tsx';
import { CreateGroupPanel } from './create-group-panel.tsx';

const noOne: string[] = [];

/**
 * /all-chats: the chat list and the open chat. The open chat is in the URL (`?chat=<id>`), so
 * the Users page can open one and a reload keeps it; a search result adds the message to open at.
 */
export const AllChatsPage = () => {
  const me = useAppSelector(selectCurrentUser);
  const [params, setParams] = useSearchParams();
  const chatId = params.get('chat');
  // A search result opens its chat at the message (`&message=<id>&seq=<n>`).
  const focusId = params.get('message');
  const focusSeq = Number(params.get('seq')) || undefined;
  const { data: chats, isLoading, isFetching, refetch } = useGetChatsQuery();
  const { onlineIds } = useGetPresenceQuery(me?._id ?? '', {
    skip: !me,
    // Last-seen times change nothing in the list: it re-renders only when who is online does.
    selectFromResult: ({ data }) => ({ onlineIds: data?.online ?? noOne }),
  });
  const { data: unread } = useGetUnreadQuery(me?._id ?? '', { skip: !me });
  // Small screens show one pane: without an open chat, that is the list.
  const [listOpen, setListOpen] = useState(!chatId);
  useEffect(() => {
    if (!chatId) setListOpen(true);
  }, [chatId]);
  const [creating, setCreating] = useState(false);
  const { t } = useTranslation();
  useGroupUpdates();

  // A chat that is open but not listed is new (a cached list predates it): fetch the list again.
  // Once per chat id: an id that is not ours at all must not refetch forever.
  const refetchedFor = useRef<string | null>(null);
  const missing = Boolean(chatId && chats && !isFetching && !chats.some((chat) => chat._id === chatId));
  useEffect(() => {
    if (!missing || refetchedFor.current === chatId) return;
    refetchedFor.current = chatId;
    void refetch();
  }, [missing, chatId, refetch]);

  if (!me) return null;

  const select = (id: string) => {
    setParams({ chat: id });
    setListOpen(false);
  };
  const openMessage = (id: string, messageId: string, seq: number) => {
    setParams({ chat: id, message: messageId, seq: String(seq) });
    setListOpen(false);
  };

  return (
    <div className="all-chats">
      <h1 className="visually-hidden">{t('chats.heading')}</h1>
      <ChatList
        chats={chats}
        unread={unread}
        myId={me._id}
        loading={isLoading}
        selectedId={chatId}
        onlineIds={onlineIds}
        open={listOpen}
        onSelect={select}
        onOpenMessage={openMessage}
        onClose={() => setListOpen(false)}
        onCreateGroup={() => setCreating(true)}
      />
      <section className="chat-pane" aria-label={t('chats.openChat')}>
        {chatId ? (
          <ChatWindow
            key={`${chatId}:${focusId ?? ''}`}
            chatId={chatId}
            me={me}
            onShowList={() => setListOpen(true)}
            focus={
              focusId ? { messageId: focusId, ...(focusSeq !== undefined && { seq: focusSeq }) } : undefined
            }
          />
        ) : (
          <div className="chat-window chat-window--empty">
            <ChatListButton onClick={() => setListOpen(true)} />
            <p className="empty-state">{t('chats.selectChat')}</p>
          </div>
        )}
      </section>
      {creating && (
        <CreateGroupPanel
          myId={me._id}
          onClose={() => setCreating(false)}
          onCreated={(chat) => select(chat._id)}
        />
      )}
    </div>
  );
};
