import { createBrowserRouter } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page.tsx';
import { RegisterPage } from '../features/auth/components/register-page.tsx';
import { AllChatsPage } from '../features/chats/components/all-chats-page.tsx';
import { NotificationSwitch } from '../features/chats/notifications/notification-switch.tsx';
import { WelcomePage } from '../features/home/components/welcome-page.tsx';
import { LinkNewBrowser } from '../features/device-link/components/link-new-browser.tsx';
import { BackupSettings } from '../features/key-backup/components/backup-settings.tsx';
import { ProfilePage } from '../features/profile/components/profile-page.tsx';
import { UsersPage } from '../features/users/components/users-page.tsx';
import { NotFoundPage } from './not-found-page.tsx';
import { RequireLogin, RequireVisitor } from './route-guards.tsx';
import { ShellLayout } from './shell-layout.tsx';

/** The routes (docs/web.md, "Routes and guards"), all inside the shell layout. */
export const createRouter = () =>
  createBrowserRouter([
    {
      element: <ShellLayout />,
      children: [
        { path: '/', element: <WelcomePage /> },
        {
          path: '/login',
          element: (
            <RequireVisitor>
              <LoginPage />
            </RequireVisitor>
          ),
        },
        {
          path: '/register',
          element: (
            <RequireVisitor>
              <RegisterPage />
            </RequireVisitor>
          ),
        },
        {
          path: '/all-chats',
          element: (
            <RequireLogin>
              <AllChatsPage />
            </RequireLogin>
          ),
        },
        { path: '/users', element: <UsersPage /> },
        {
          path: '/profile',
          element: (
            <RequireLogin>
              <ProfilePage />
              <BackupSettings />
              <NotificationSwitch />
              <LinkNewBrowser />
            </RequireLogin>
          ),
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ]);
