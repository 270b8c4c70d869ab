import { Outlet } from 'react-router';
import { useMessageNotifications } from '../features/chats/notifications/use-message-notifications.ts';
import { useOutboxRunner } from '../features/chats/outbox/use-outbox.ts';
import { useSearchIndexer } from '../features/chats/search/use-message-search.ts';
import { DeviceLinkCenter } from '../features/device-link/components/device-link-center.tsx';
import { KeyBackupCenter } from '../features/key-backup/components/key-backup-center.tsx';
import { ThemeToggle } from '../features/theme/components/theme-toggle.tsx';
import { useApplyTheme } from '../features/theme/hooks/use-apply-theme.ts';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { ConnectionBanner } from './connection-banner.tsx';
import { useAppSelector } from './hooks.ts';
import { NavBar } from './nav-bar.tsx';
import { OwnLogAlert } from './own-log-alert.tsx';
import { usePageTitle } from './page-title.ts';
import { useRouteFocus } from './route-focus.ts';
import { useProfileUpdates } from './profile-updates.ts';
import { useRealtimeConnection } from './realtime-connection.ts';
import { RewrapStatus } from './rewrap-status.tsx';
import { useSessionKeys } from './session-keys.ts';

/** Wraps every route: the nav on the left, the theme toggle top right, the page. */
export const ShellLayout = () => {
  useApplyTheme();
  useRealtimeConnection();
  useSessionKeys();
  usePageTitle();
  useRouteFocus();
  useOutboxRunner();
  useProfileUpdates();
  useMessageNotifications();
  const me = useAppSelector(selectCurrentUser);
  useSearchIndexer(me?._id);
  return (
    <div className="shell">
      <NavBar />
      <div className="shell__main">
        <header className="topbar">
          <ThemeToggle />
        </header>
        <ConnectionBanner />
        <RewrapStatus />
        <OwnLogAlert />
        <KeyBackupCenter />
        <DeviceLinkCenter />
        <main className="shell__content" id="content">
          <Outlet />
        </main>
      </div>
    </div>
  );
};
