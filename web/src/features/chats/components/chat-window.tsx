import { useTranslation } from 'react-i18next';
import type { PublicUser } from '@veil/contracts';
import type { MessageMention } from '@veil/crypto';
import { useCallback, useEffect, useState } from 'react';
import { RetryNotice } from '../../../components/retry-notice.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import {
  type DisplayMessage,
  useGetChatByIdQuery,
  useGetMessagesQuery,
  chatTitle,
} from '../../messages/index.ts';
import { useAppDispatch, useAppSelector } from '../../../app/hooks.ts';
import { accountKeys, restoreRequested, selectKeysVersion } from '../../keys/index.ts';
import { isPassingFailure, useAutoRetry } from '../../../lib/use-auto-retry.ts';
import { useGetPresenceQuery } from '../api/presence.api.ts';
import { useUnreadAtOpen } from '../hooks/use-unread-at-open.ts';
import { useUnexpired } from '../hooks/use-unexpired.ts';
import { useSignedChat } from '../hooks/use-verified-group.ts';
import { indexShownMessages } from '../../search/index.ts';
import { useContactKeys } from '../hooks/use-contact-keys.ts';
import { useSendKeys } from '../hooks/use-send-keys.ts';
import { useJoinChat } from '../hooks/use-join-chat.ts';
import { useSendMessage } from '../hooks/use-send-message.ts';
import { useTypingEmitter } from '../hooks/use-typing-emitter.ts';
import { useTypingUsers } from '../hooks/use-typing-users.ts';
import { MuteButton } from '../../notifications/index.ts';
import { CallButtons } from '../calls/call-buttons.tsx';
import { GroupCallButtons } from '../calls/group-call-buttons.tsx';
import { useBlockedIds } from '../../../lib/blocks.api.ts';
import { BlockedComposer } from './blocked-composer.tsx';
import { ChatOptions } from './chat-options.tsx';
import {
  AttachmentPicker,
  UploadTray,
  maxFilesPerMessage,
  useAttachmentUploads,
} from '../../attachments/index.ts';
import { ChatHeader } from './chat-header.tsx';
import { ChatListButton } from './chat-list-button.tsx';
import { FirstMessageSuggestion } from './first-message-suggestion.tsx';
import { KeyCheckBlock } from './key-check-block.tsx';
import { KeyNotices } from './key-notices.tsx';
import { MessageComposer } from './message-composer.tsx';
import { MessageList } from './message-list.tsx';
import { ReplyBar } from './reply-bar.tsx';
import { SafetyNumberDialog } from './safety-number-dialog.tsx';
import { TypingIndicator } from './typing-indicator.tsx';
import { useDraft } from '../../drafts/index.ts';
import { mentionableMembers, clearMentioned } from '../../mentions/index.ts';

const noMessages: DisplayMessage[] = [];

interface ChatWindowProps {
  chatId: string;
  me: PublicUser;
  onShowList: () => void;
  /** Open at this message (a search result) rather than at the newest. */
  focus?: { messageId: string; seq?: number } | undefined;
}

/** The open chat: header, decrypted history, typing indicator, reply bar and composer. */
export const ChatWindow = ({ chatId, me, onShowList, focus }: ChatWindowProps) => {
  const {
    data: served,
    isError: chatFailed,
    error: chatError,
    refetch: refetchChat,
  } = useGetChatByIdQuery(chatId);
  const {
    data: history,
    isLoading,
    isError: historyFailed,
    error: historyError,
    refetch: refetchHistory,
  } = useGetMessagesQuery({ chatId, userId: me._id });
  // A group is shown as its verified chain says it is: members, admins, name, timer.
  const { chat, group } = useSignedChat(served, me._id);
  const draft = useDraft(me._id, chatId);
  const failure = chatFailed ? chatError : historyFailed ? historyError : undefined;
  const passing = (chatFailed || historyFailed) && isPassingFailure(failure);
  const retryLoad = useCallback(() => {
    if (chatFailed) void refetchChat();
    if (historyFailed) void refetchHistory();
  }, [chatFailed, historyFailed, refetchChat, refetchHistory]);
  const { nextAt, retryNow } = useAutoRetry({
    failed: passing,
    loaded: Boolean(chat && history),
    retry: retryLoad,
  });
  const { data: presence } = useGetPresenceQuery(me._id);
  const blockedIds = useBlockedIds();
  const [replyTo, setReplyTo] = useState<DisplayMessage | null>(null);
  const [keyMissing, setKeyMissing] = useState(false);
  const keysVersion = useAppSelector(selectKeysVersion);
  const dispatch = useAppDispatch();
  const typingIds = useTypingUsers(chatId);
  const { keystroke, stop } = useTypingEmitter(chatId);
  const { send } = useSendMessage(chat);
  const uploads = useAttachmentUploads(chatId);
  const { keys: contactKeys, recheck: recheckKeys } = useContactKeys(me._id, chat);
  const { unchecked, retry: retryKeyCheck } = useSendKeys(me._id, chat);
  const [verifying, setVerifying] = useState(false);
  const { t } = useTranslation();
  useJoinChat(chatId, !chat?.removedFromGroup);
  // Opening a chat reads its mentions of me (the list may not be shown beside it, on a phone).
  useEffect(() => clearMentioned(me._id, chatId), [me._id, chatId]);
  const unreadAtOpen = useUnreadAtOpen(chatId, me._id);
  const messages = useUnexpired(history?.messages ?? noMessages);
  // What this browser decrypts for the screen also goes into its search index (edits and
  // deletions made while it was away included).
  useEffect(() => indexShownMessages(me._id, messages), [me._id, messages]);

  useEffect(() => {
    let live = true;
    void accountKeys(me._id).then((keys) => live && setKeyMissing(keys.length === 0));
    return () => {
      live = false;
    };
  }, [me._id, keysVersion]);

  const onReply = useCallback((message: DisplayMessage) => setReplyTo(message), []);

  const onSend = async (text: string, mentions: MessageMention[] = []) => {
    stop();
    const replying = replyTo;
    setReplyTo(null);
    const files = await uploads.finish();
    const sent = files !== null && (await send(text, replying, files, mentions));
    if (sent) uploads.clear();
    if (!sent) setReplyTo((now) => now ?? replying);
    return sent;
  };

  if (chatFailed || historyFailed) {
    return (
      <div className="chat-window chat-window--empty">
        <ChatListButton onClick={onShowList} />
        <p className="form__error" role="alert">
          {t('chats.loadFailed')}
        </p>
        {passing && nextAt !== null && <RetryNotice nextAt={nextAt} onRetry={retryNow} />}
      </div>
    );
  }
  if (!chat || isLoading || !history) {
    return (
      <div className="chat-window chat-window--empty">
        <Spinner label={t('chats.loadingChat')} />
      </div>
    );
  }

  const title = chatTitle(chat);
  const removed = chat.removedFromGroup !== undefined;
  const otherId = chat.isGroupChat ? undefined : chat.participants[0]?._id;
  const names = typingIds.map(
    (id) => chat.participants.find((p) => p._id === id)?.username ?? t('common.someone'),
  );
  const other = chat.isGroupChat ? undefined : chat.participants[0];
  const otherKeys = other && contactKeys.get(other._id);
  const blockedOther = other && blockedIds.has(other._id) ? other : undefined;
  const checkedKeys = otherKeys?.kind === 'checked' ? otherKeys : undefined;

  return (
    <div className="chat-window">
      <ChatHeader
        chat={chat}
        me={me}
        title={title}
        online={otherId !== undefined && Boolean(presence?.online.includes(otherId))}
        lastSeen={otherId === undefined ? undefined : presence?.lastSeen[otherId]}
        onShowList={onShowList}
        group={group}
        actions={
          <>
            {checkedKeys && (
              <>
                {checkedKeys.verified && <span className="verified-badge">{t('chats.verified')}</span>}
                <button
                  type="button"
                  className="button chat-header__verify"
                  onClick={() => setVerifying(true)}
                >
                  {t('chats.verify')}
                </button>
              </>
            )}
            {other && !blockedOther && (
              <CallButtons chatId={chatId} peerId={other._id} peerName={other.username} />
            )}
            {chat.isGroupChat && !removed && <GroupCallButtons chatId={chatId} groupName={title} />}
            <MuteButton userId={me._id} chatId={chatId} />
            <ChatOptions
              chat={chat}
              other={other}
              onVerify={checkedKeys ? () => setVerifying(true) : undefined}
            />
          </>
        }
      />
      {verifying && other && checkedKeys && (
        <SafetyNumberDialog
          myId={me._id}
          contact={other}
          keys={checkedKeys}
          onClose={() => setVerifying(false)}
          onChanged={recheckKeys}
        />
      )}
      <KeyNotices chat={chat} keys={contactKeys} />
      {!removed && <KeyCheckBlock chat={chat} myId={me._id} unchecked={unchecked} onRetry={retryKeyCheck} />}
      {keyMissing && (
        <div className="form__error chat-window__notice chat-window__key-notice" role="alert">
          <p>{t('messages.missingKey')}</p>
          <button type="button" className="button" onClick={() => dispatch(restoreRequested())}>
            {t('chats.restore')}
          </button>
        </div>
      )}
      <MessageList
        chat={chat}
        me={me}
        messages={messages}
        hasMore={history.hasMore}
        group={group}
        unreadAtOpen={unreadAtOpen}
        onReply={onReply}
        focus={focus}
      />
      <TypingIndicator names={names} />
      {!chat.isGroupChat && !blockedOther && messages.length === 0 && chat.participants[0] && (
        <FirstMessageSuggestion name={chat.participants[0].username} onSend={(text) => void onSend(text)} />
      )}
      {removed ? (
        // Read-only: the history up to the removal stays; nothing can be sent.
        <p className="chat-window__read-only" role="status" data-testid="read-only-notice">
          {t('chats.noLongerMember')}
        </p>
      ) : (
        <>
          {replyTo && <ReplyBar message={replyTo} onClear={() => setReplyTo(null)} />}
          <UploadTray uploads={uploads} />
          {blockedOther ? (
            <BlockedComposer user={blockedOther} />
          ) : (
            <MessageComposer
              draft={draft.draft}
              onTextChange={draft.keep}
              onSend={onSend}
              onKeystroke={keystroke}
              canSendEmpty={uploads.items.length > 0}
              members={mentionableMembers(chat, me._id)}
              accessory={
                <AttachmentPicker
                  onPick={uploads.add}
                  disabled={uploads.items.length >= maxFilesPerMessage}
                />
              }
            />
          )}
        </>
      )}
    </div>
  );
};
