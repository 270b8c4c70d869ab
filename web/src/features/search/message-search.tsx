import type { ChatView } from '@veil/contracts';
import { useTranslation } from 'react-i18next';
import { chatTitle } from '../messages/index.ts';
import type { MessageHit } from './message-index.ts';
import { snippetOf } from './snippet.ts';
import { useMessageSearch } from './use-message-search.ts';

interface MessageResultsProps {
  query: string;
  chats: ChatView[] | undefined;
  myId: string;
  onOpen: (chatId: string, messageId: string, seq: number) => void;
}

/**
 * Messages of every chat that match the query, found in this browser's own index: the query is
 * never sent anywhere. A result opens its chat at the message.
 */
export const MessageResults = ({ query, chats, myId, onOpen }: MessageResultsProps) => {
  const { t, i18n } = useTranslation();
  const { status, hits } = useMessageSearch(query);
  const dateOf = (at: string) =>
    new Date(at).toLocaleDateString(i18n.resolvedLanguage, { dateStyle: 'medium' });
  const titleOf = (hit: MessageHit) => {
    const chat = chats?.find((c) => c._id === hit.chatId);
    return chat ? chatTitle(chat) : t('search.chatLeft');
  };
  const authorOf = (hit: MessageHit) => {
    if (hit.senderId === myId) return t('common.you');
    return chats?.find((c) => c._id === hit.chatId)?.participants.find((p) => p._id === hit.senderId)
      ?.username;
  };
  return (
    <section className="message-results" aria-label={t('search.results')}>
      {!status.ready ? (
        <p className="empty-state" role="status">
          {t('search.needsKey')}
        </p>
      ) : hits.length === 0 ? (
        <p className="empty-state" role="status">
          {status.building ? t('search.noneYet') : t('search.none')}
        </p>
      ) : (
        <>
          <p className="visually-hidden" role="status">
            {t('search.found', { count: hits.length })}
          </p>
          <ul className="message-results__items">
            {hits.map((hit) => (
              <li key={hit.id}>
                <button
                  type="button"
                  className="message-result"
                  data-testid="message-result"
                  onClick={() => onOpen(hit.chatId, hit.id, hit.seq)}
                >
                  <span className="message-result__top">
                    <span className="message-result__chat">{titleOf(hit)}</span>
                    <time className="message-result__time" dateTime={hit.createdAt}>
                      {dateOf(hit.createdAt)}
                    </time>
                  </span>
                  <span className="message-result__text">
                    {authorOf(hit) && <span className="message-result__author">{authorOf(hit)}: </span>}
                    {snippetOf(hit.text, hit.terms).map((part, i) =>
                      part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                    )}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      {status.ready && status.building && hits.length > 0 && (
        <p className="message-results__note">{t('search.stillReading')}</p>
      )}
    </section>
  );
};
