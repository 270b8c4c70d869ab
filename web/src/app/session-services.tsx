import { useEffect } from 'react';
import { unreadTotal, useGetUnreadQuery } from '../features/messages/api/unread.api.ts';
import { CallCenter } from '../features/chats/calls/call-center.tsx';
import { useMessageNotifications } from '../features/notifications/use-message-notifications.ts';
import { useMentionTracker } from '../features/mentions/use-mention-tracker.ts';
import { useOutboxRunner } from '../features/messages/outbox/use-outbox.ts';
import { useSearchIndexer } from '../features/search/use-message-search.ts';
import { DeviceLinkCenter } from '../features/device-link/components/device-link-center.tsx';
import { useGetOperatorStatusQuery } from '../features/operator/api/operator.api.ts';
import { KeyBackupCenter } from '../features/key-backup/components/key-backup-center.tsx';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { ConnectionBanner } from './connection-banner.tsx';
import { useAppSelector } from './hooks.ts';
import { OwnLogAlert } from './own-log-alert.tsx';
import { useProfileUpdates } from './profile-updates.ts';
import { useRealtimeConnection } from './realtime-connection.ts';
import { RewrapStatus } from './rewrap-status.tsx';
import { useSessionKeys } from './session-keys.ts';

/** Unread messages in all, and how many chats have some. */
export interface UnreadSummary {
  messages: number;
  chats: number;
}

/**
 * What runs while someone is logged in: the socket, the keys, the outbox, notifications, the
 * search index, and the banners and dialogs of the session. Its own chunk, loaded with the
 * first login of the page (`shell-layout.tsx`), so a visitor's first page does not carry the
 * crypto, the socket or the search engine; it stays mounted after a logout, where each part
 * does its logged-out work (disconnect, clear).
 */
const SessionServices = ({
  onUnread,
  onOperator,
}: {
  onUnread: (unread: UnreadSummary) => void;
  /** Whether the account holds the operator role (the nav then shows the operator page). */
  onOperator: (operator: boolean) => void;
}) => {
  const me = useAppSelector(selectCurrentUser);
  useRealtimeConnection();
  useSessionKeys();
  useOutboxRunner();
  useProfileUpdates();
  useMessageNotifications();
  useMentionTracker();
  useSearchIndexer(me?._id);
  const { data } = useGetUnreadQuery(me?._id ?? '', { skip: !me });
  const messages = me ? unreadTotal(data) : 0;
  const chats = me ? Object.values(data ?? {}).filter((chat) => chat.unread > 0).length : 0;
  useEffect(() => onUnread({ messages, chats }), [messages, chats, onUnread]);
  const { data: role } = useGetOperatorStatusQuery(me?._id ?? '', { skip: !me });
  const operator = Boolean(me && role?.operator);
  useEffect(() => onOperator(operator), [operator, onOperator]);
  return (
    <>
      <ConnectionBanner />
      <RewrapStatus />
      <OwnLogAlert />
      <KeyBackupCenter />
      <DeviceLinkCenter />
      {me && <CallCenter me={me._id} />}
    </>
  );
};

export default SessionServices;
