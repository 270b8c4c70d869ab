import type { ApiError } from '../../lib/api-error.ts';
import { apiPrefix, readEnvelope } from '../../lib/base-query.ts';
import { readAccessToken } from '../../lib/storage.ts';
import { refreshTokens } from '../../lib/token-refresh.ts';

/**
 * HTTP for attachments outside RTK Query: chunk bodies are bytes, not JSON, and an upload runs
 * on after the component that started it re-renders. Same bearer token and one refresh on 401
 * as the app's base query.
 */
export const authorizedFetch = async (path: string, init: RequestInit = {}): Promise<Response> => {
  const attempt = () => {
    const headers = new Headers(init.headers);
    const token = readAccessToken();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return fetch(`${apiPrefix}${path}`, { ...init, headers });
  };
  const response = await attempt();
  if (response.status === 401 && (await refreshTokens())) return attempt();
  return response;
};

/** The `data` of a JSON answer, or its failure as an ApiError (thrown). */
export const apiJson = async <T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> => {
  const { json, ...rest } = init;
  const response = await authorizedFetch(
    path,
    json === undefined
      ? rest
      : { ...rest, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) },
  );
  const result = await readEnvelope(response);
  if ('error' in result) throw result.error;
  return result.data as T;
};

/** A failure of a chunk request as an ApiError, keeping Retry-After (seconds) for 429. */
export const chunkFailure = async (response: Response): Promise<ApiError & { retryAfterMs?: number }> => {
  const result = await readEnvelope(response);
  const error: ApiError =
    'error' in result ? result.error : { kind: 'http', status: response.status, statusText: '', message: '' };
  const retryAfter = Number(response.headers.get('Retry-After'));
  return retryAfter > 0 ? { ...error, retryAfterMs: retryAfter * 1000 } : error;
};
