import type { PublicUser } from '@veil/contracts';

/**
 * The seed contract's local storage keys (docs/web.md, "Storage"), and Veil's one addition: the
 * language chosen on the profile page. Nothing else is kept there.
 */
export const storageKeys = {
  user: 'data',
  accessToken: 'accesstoken',
  refreshToken: 'refreshtoken',
  theme: 'theme',
  language: 'language',
} as const;

/** Storage can throw (privacy modes, quota); the app then behaves as if nothing was stored. */
const read = (key: string): string | null => {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
};

const write = (key: string, value: string): void => {
  try {
    localStorage.setItem(key, value);
  } catch (error) {
    console.warn(`Could not store ${key}`, error);
  }
};

const isPublicUser = (value: unknown): value is PublicUser =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as PublicUser)._id === 'string' &&
  typeof (value as PublicUser).username === 'string';

/** The stored user record, or null when `data` is missing, empty or not a user. */
export const readStoredUser = (): PublicUser | null => {
  const raw = read(storageKeys.user);
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isPublicUser(parsed) ? { ...parsed, profilePicture: parsed.profilePicture ?? null } : null;
  } catch {
    return null;
  }
};

export const storeUser = (user: PublicUser): void => write(storageKeys.user, JSON.stringify(user));

export const readAccessToken = (): string | null => read(storageKeys.accessToken);
export const readRefreshToken = (): string | null => read(storageKeys.refreshToken);

export const storeTokens = (tokens: { accesstoken: string; refreshtoken: string }): void => {
  write(storageKeys.accessToken, tokens.accesstoken);
  write(storageKeys.refreshToken, tokens.refreshtoken);
};

export const readTheme = (): 'light' | 'dark' | null => {
  const theme = read(storageKeys.theme);
  return theme === 'light' || theme === 'dark' ? theme : null;
};

export const storeTheme = (theme: 'light' | 'dark'): void => write(storageKeys.theme, theme);

/**
 * Logout and an expired session clear all local storage, as the seed contract says (theme included), but
 * for the language: it belongs to the browser's user, not to the account, and a login page that
 * switched language at logout would lose whoever chose it.
 */
export const clearStorage = (): void => {
  try {
    const language = localStorage.getItem(storageKeys.language);
    localStorage.clear();
    if (language) localStorage.setItem(storageKeys.language, language);
  } catch (error) {
    console.warn('Could not clear local storage', error);
  }
};
