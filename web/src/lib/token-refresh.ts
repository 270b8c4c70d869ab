import { createStore, get, set } from 'idb-keyval';
import { readRefreshToken, storeTokens } from './storage.ts';

/**
 * Refresh tokens rotate, and the server takes a refresh token used twice for a stolen one: it
 * revokes the whole session. So one refresh at a time per browser profile: the callers of a tab
 * share one request (several 401s at once, the socket), and tabs take turns under a Web Lock
 * (they share local storage, hence the refresh token). A caller whose token was replaced while
 * it waited (another tab refreshed, the user logged in again) uses the new one without a request.
 */
const lockName = 'veil-token-refresh';
/**
 * The refresh token last exchanged by any tab. Another tab's local storage can lag behind a
 * write for a moment, IndexedDB cannot: a tab that finds its token here knows it was spent and
 * waits for the new ones to reach its local storage instead of spending it again.
 */
const spentStore = createStore('veil-session', 'refresh');
const spentEntry = 'spent-refresh-token';
/** How long the tokens another tab stored may take to show in this tab's local storage. */
const propagationWaitMs = 5000;

/** Resolves once local storage holds a refresh token other than `old` (false: none came). */
const replacedInStorage = (old: string) =>
  new Promise<boolean>((resolve) => {
    const check = () => {
      const now = readRefreshToken();
      if (now === old) return false;
      finish(now !== null);
      return true;
    };
    const onStorage = () => void check();
    const timer = setTimeout(() => finish(false), propagationWaitMs);
    const finish = (replaced: boolean) => {
      clearTimeout(timer);
      window.removeEventListener('storage', onStorage);
      resolve(replaced);
    };
    window.addEventListener('storage', onStorage);
    check();
  });

let inFlight: Promise<boolean> | null = null;
/** Work that is replacing the tokens right now (a password change logging in again). */
let replacing: Promise<unknown> | null = null;
/** How long a refused refresh waits for such work (which may itself be waiting on a refresh). */
const replacingWaitMs = 15_000;

const replaced = () =>
  replacing && Promise.race([replacing, new Promise((resolve) => setTimeout(resolve, replacingWaitMs))]);

const requestRefresh = async (refreshtoken: string): Promise<boolean> => {
  try {
    const response = await fetch('/api/v1/user/refresh', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refreshtoken }),
    });
    if (!response.ok) return false;
    const body = (await response.json()) as {
      success?: boolean;
      data?: { accesstoken?: string; refreshtoken?: string };
    };
    if (!body.success || !body.data?.accesstoken || !body.data.refreshtoken) return false;
    await set(spentEntry, refreshtoken, spentStore).catch(() => undefined);
    storeTokens({ accesstoken: body.data.accesstoken, refreshtoken: body.data.refreshtoken });
    return true;
  } catch (error) {
    console.error('Token refresh failed', error);
    return false;
  }
};

/** Runs `work` holding the browser-wide refresh lock (where Web Locks exist; alone otherwise). */
const underLock = <T>(work: () => Promise<T>): Promise<T> =>
  typeof navigator !== 'undefined' && navigator.locks
    ? (navigator.locks.request(lockName, work) as Promise<T>)
    : work();

const refreshOnce = async (): Promise<boolean> => {
  const seen = readRefreshToken();
  if (!seen) return false;
  const refreshed = await underLock(async () => {
    const current = readRefreshToken();
    if (current !== seen) return current !== null;
    const spent = await get<string>(spentEntry, spentStore).catch(() => undefined);
    if (spent === current) return replacedInStorage(current);
    return requestRefresh(current);
  });
  if (refreshed) return true;
  // Refused; unless new tokens were stored meanwhile (a login that was under way), the session is over.
  await replaced();
  const now = readRefreshToken();
  return now !== null && now !== seen;
};

/**
 * Exchanges the stored refresh token for new tokens and stores them; resolves whether the
 * stored tokens are now good ones (false: the session is over).
 */
export const refreshTokens = (): Promise<boolean> => {
  inFlight ??= refreshOnce().finally(() => {
    inFlight = null;
  });
  return inFlight;
};

/**
 * For work that ends the session's tokens and stores new ones (a password change, which revokes
 * every refresh token, then logs in again): a refresh refused meanwhile waits for it, then uses
 * what it stored instead of ending the session.
 */
export const replacingTokens = <T>(work: Promise<T>): Promise<T> => {
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  replacing = settled;
  void settled.then(() => {
    if (replacing === settled) replacing = null;
  });
  return work;
};
