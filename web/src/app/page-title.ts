import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

const pageNames = {
  '/': 'pages.welcome',
  '/login': 'pages.login',
  '/register': 'pages.register',
  '/all-chats': 'pages.chats',
  '/users': 'pages.users',
  '/profile': 'pages.profile',
  '/operator': 'pages.operator',
} as const;

const pageKey = (pathname: string) => pageNames[pathname as keyof typeof pageNames] ?? 'pages.notFound';

/** "(3) Chats · Veil": the page, and the unread total when there is one. */
export const pageTitle = (pathname: string, unread: number, t: TFunction) => {
  const page = t(pageKey(pathname));
  return unread > 0 ? t('pages.titleUnread', { page, count: unread }) : t('pages.title', { page });
};

const plainIcon = '/favicon.svg';

/** The app's icon with a red badge holding the count (an SVG data URL: no canvas, no request). */
const badgedIcon = (count: number) => {
  const label = count > 99 ? '99+' : String(count);
  const size = label.length > 2 ? 9 : 12;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">` +
    `<rect width="32" height="32" rx="8" fill="#4f46e5"/>` +
    `<path d="M9 10l7 13 7-13" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>` +
    `<circle cx="22" cy="10" r="10" fill="#dc2626"/>` +
    `<text x="22" y="14" font-family="sans-serif" font-size="${size}" font-weight="700" fill="#fff" text-anchor="middle">${label}</text>` +
    `</svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
};

/** Keeps the tab's title and icon in step with the route and the unread total. */
export const usePageTitle = (total: number) => {
  const { pathname } = useLocation();
  const { t } = useTranslation();
  useEffect(() => {
    document.title = pageTitle(pathname, total, t);
  }, [pathname, total, t]);
  useEffect(() => {
    const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (icon) icon.href = total > 0 ? badgedIcon(total) : plainIcon;
  }, [total]);
};
