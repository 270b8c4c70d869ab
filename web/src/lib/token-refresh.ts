import { readRefreshToken, storeTokens } from './storage.ts';

let inFlight: Promise<boolean> | null = null;

const refreshOnce = async (): Promise<boolean> => {
  const refreshtoken = readRefreshToken();
  if (!refreshtoken) return false;
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
    storeTokens({ accesstoken: body.data.accesstoken, refreshtoken: body.data.refreshtoken });
    return true;
  } catch (error) {
    console.error('Token refresh failed', error);
    return false;
  }
};

/**
 * Exchanges the stored refresh token for new tokens and stores them. Refresh tokens rotate and
 * a reused one revokes the whole family, so concurrent callers (several 401s at once, the
 * socket) must share one request: they all await the same promise.
 */
export const refreshTokens = (): Promise<boolean> => {
  inFlight ??= refreshOnce().finally(() => {
    inFlight = null;
  });
  return inFlight;
};
