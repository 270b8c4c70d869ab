import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { selectIsLoggedIn } from '../lib/session.slice.ts';
import { useAppSelector } from './hooks.ts';

/**
 * The guards (docs/web.md, "Routes and guards"): pages that need an account send visitors to
 * /login, and the login and register pages send a logged-in user to /all-chats.
 */
export const RequireLogin = ({ children }: { children: ReactNode }) =>
  useAppSelector(selectIsLoggedIn) ? children : <Navigate to="/login" replace />;

export const RequireVisitor = ({ children }: { children: ReactNode }) =>
  useAppSelector(selectIsLoggedIn) ? <Navigate to="/all-chats" replace /> : children;
