import type { BaseQueryFn } from '@reduxjs/toolkit/query';
import type { ApiError } from './api-error.ts';
import { loggedOut } from './session.slice.ts';
import { clearStorage, readAccessToken } from './storage.ts';
import { refreshTokens } from './token-refresh.ts';

export interface ApiRequest {
  /** Path under /api/v1, e.g. `user/getuser`. */
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** A FormData body goes out as multipart; anything else as JSON. */
  body?: unknown;
  params?: Record<string, string | number | undefined>;
}

export const apiPrefix = '/api/v1/';

const buildUrl = ({ url, params }: ApiRequest): string => {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {}))
    if (value !== undefined) query.set(key, String(value));
  const search = query.toString();
  return `${apiPrefix}${url}${search ? `?${search}` : ''}`;
};

const send = (request: ApiRequest, token: string | null, signal: AbortSignal): Promise<Response> => {
  const headers = new Headers();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let body: BodyInit | undefined;
  if (request.body instanceof FormData) body = request.body;
  else if (request.body !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(request.body);
  }
  return fetch(buildUrl(request), { method: request.method ?? 'GET', headers, body, signal });
};

export const readEnvelope = async (response: Response): Promise<{ data: unknown } | { error: ApiError }> => {
  const { status, statusText } = response;
  type Envelope = { success?: unknown; message?: unknown; data?: unknown; code?: unknown } | null;
  let body: Envelope;
  try {
    body = (await response.json()) as Envelope;
  } catch {
    body = null;
  }
  const message = typeof body?.message === 'string' ? body.message : '';
  const code = typeof body?.code === 'string' ? body.code : undefined;
  if (!response.ok) {
    return {
      error: {
        kind: 'http',
        status,
        statusText,
        message: message || statusText || `HTTP ${status}`,
        ...(code ? { code } : {}),
      },
    };
  }
  if (body === null || typeof body !== 'object') {
    return {
      error: { kind: 'parse', status, statusText, message: 'The server sent an unreadable response' },
    };
  }
  if (body.success !== true) return { error: { kind: 'unsuccessful', status, statusText, message } };
  return { data: body.data };
};

/**
 * The one base query: `/api/v1` envelopes, the bearer token from local storage, and on a 401
 * one token refresh (shared with every other caller: token-refresh.ts) and one retry. A session whose refresh fails is over: storage is cleared
 * and the state logged out (route guards then send the user to /login).
 */
export const veilBaseQuery: BaseQueryFn<ApiRequest, unknown, ApiError> = async (request, api) => {
  try {
    const token = readAccessToken();
    let response = await send(request, token, api.signal);
    if (response.status === 401 && token) {
      // Tokens renewed since this request went out (by another request, another tab) need no refresh.
      if (readAccessToken() !== token || (await refreshTokens()))
        response = await send(request, readAccessToken(), api.signal);
      else {
        clearStorage();
        api.dispatch(loggedOut());
      }
    }
    return await readEnvelope(response);
  } catch (error) {
    const aborted = error instanceof DOMException && error.name === 'AbortError';
    return {
      error: {
        kind: 'network',
        status: null,
        statusText: '',
        message: aborted
          ? 'The request was cancelled'
          : error instanceof Error
            ? error.message
            : 'Network error',
      },
    };
  }
};

/** The base query as a `queryFn` receives it, typed for the requests and errors above. */
export type BaseQueryCall = (request: ApiRequest) => ReturnType<typeof veilBaseQuery>;
