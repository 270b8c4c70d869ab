import { lazy, Suspense, useCallback, useState } from 'react';
import { Outlet } from 'react-router';
import { ThemeToggle } from '../features/theme/components/theme-toggle.tsx';
import { useApplyTheme } from '../features/theme/hooks/use-apply-theme.ts';
import { selectCurrentUser } from '../lib/session.slice.ts';
import { useAppSelector } from './hooks.ts';
import { NavBar } from './nav-bar.tsx';
import { usePageTitle } from './page-title.ts';
import { useRouteFocus } from './route-focus.ts';
import type { UnreadSummary } from './session-services.tsx';
import { apiReady } from './store.ts';

const SessionServices = lazy(() =>
  Promise.all([import('./session-services.tsx'), apiReady()]).then(([module]) => module),
);

const noUnread: UnreadSummary = { messages: 0, chats: 0 };

/** Wraps every route: the nav on the left, the theme toggle top right, the page. */
export const ShellLayout = () => {
  useApplyTheme();
  useRouteFocus();
  const me = useAppSelector(selectCurrentUser);
  // Loaded at the first login of this page and kept (docs/web.md, "Loading").
  const [session, setSession] = useState(false);
  if (me && !session) setSession(true);
  const [unread, setUnread] = useState(noUnread);
  const onUnread = useCallback(
    (next: UnreadSummary) =>
      setUnread((now) => (now.messages === next.messages && now.chats === next.chats ? now : next)),
    [],
  );
  const [operator, setOperator] = useState(false);
  const shown = me ? unread : noUnread;
  usePageTitle(shown.messages);
  return (
    <div className="shell">
      <NavBar unreadChats={shown.chats} operator={Boolean(me) && operator} />
      <div className="shell__main">
        <header className="topbar">
          <ThemeToggle />
        </header>
        {session && (
          <Suspense fallback={null}>
            <SessionServices onUnread={onUnread} onOperator={setOperator} />
          </Suspense>
        )}
        <main className="shell__content" id="content">
          <Outlet />
        </main>
      </div>
    </div>
  );
};
