import type { ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { WelcomePage } from '../features/home/components/welcome-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RouteErrorPage } from './route-error-page.tsx';
import { RequireLogin, RequireVisitor } from './route-guards.tsx';
import { ShellLayout } from './shell-layout.tsx';
import { apiReady } from './store.ts';

/**
 * A page whose code loads when its route is first visited, so the first page a visitor opens
 * carries only the shell and the welcome page (docs/web.md, "Loading"); the API slice joins
 * the store first.
 */
const lazyPage = (path: string, load: () => Promise<ReactNode>): RouteObject => ({
  path,
  lazy: async () => {
    const [element] = await Promise.all([load(), apiReady()]);
    return { element };
  },
});

/** The app's routes (docs/web.md, "Routes and guards"), all inside the shell layout. */
export const createRouter = () =>
  createBrowserRouter([
    {
      element: <ShellLayout />,
      errorElement: <RouteErrorPage />,
      children: [
        { path: '/', element: <WelcomePage /> },
        lazyPage('/login', async () => {
          const { LoginPage } = await import('../features/auth/components/login-page.tsx');
          return (
            <RequireVisitor>
              <LoginPage />
            </RequireVisitor>
          );
        }),
        lazyPage('/register', async () => {
          const { RegisterPage } = await import('../features/auth/components/register-page.tsx');
          return (
            <RequireVisitor>
              <RegisterPage />
            </RequireVisitor>
          );
        }),
        lazyPage('/all-chats', async () => {
          const { AllChatsPage } = await import('../features/chats/components/all-chats-page.tsx');
          return (
            <RequireLogin>
              <AllChatsPage />
            </RequireLogin>
          );
        }),
        lazyPage('/users', async () => {
          const { UsersPage } = await import('../features/users/components/users-page.tsx');
          return <UsersPage />;
        }),
        lazyPage('/profile', async () => {
          const [{ ProfilePage }, { BackupSettings }, { NotificationSwitch }, { LinkNewBrowser }] =
            await Promise.all([
              import('../features/profile/components/profile-page.tsx'),
              import('../features/key-backup/components/backup-settings.tsx'),
              import('../features/notifications/notification-switch.tsx'),
              import('../features/device-link/components/link-new-browser.tsx'),
            ]);
          return (
            <RequireLogin>
              <ProfilePage />
              <BackupSettings />
              <NotificationSwitch />
              <LinkNewBrowser />
            </RequireLogin>
          );
        }),
        lazyPage('/operator', async () => {
          const { OperatorPage } = await import('../features/operator/components/operator-page.tsx');
          return (
            <RequireLogin>
              <OperatorPage />
            </RequireLogin>
          );
        }),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
