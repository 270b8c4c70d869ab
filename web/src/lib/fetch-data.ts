import { apiPrefix } from './base-query.ts';
import { readAccessToken } from './storage.ts';

/** How long a call waits for an answer: a network that dropped silently gives none. */
const answerTimeoutMs = 15_000;

/**
 * No answer at all: the network is down or dropped silently (the request failed or timed out).
 * Unlike a refusal, trying again later may work.
 */
export class NoConnectionError extends Error {
  constructor(path: string, cause: unknown) {
    super(`${path}: no answer from the server`, { cause });
    this.name = 'NoConnectionError';
  }
}

/**
 * Calls that the crypto layer makes outside RTK Query (key lookups inside other queries, key
 * work at session start): one fetch each, the stored token if any, and an error on anything but success.
 */
export const fetchData = async <T>(
  path: string,
  isData: (data: unknown) => data is T,
  post?: { json: unknown; method?: 'POST' | 'PUT' },
): Promise<T> => {
  const token = readAccessToken();
  let response;
  try {
    response = await fetch(`${apiPrefix}${path}`, {
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(post ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(post ? { method: post.method ?? 'POST', body: JSON.stringify(post.json) } : {}),
      signal: AbortSignal.timeout(answerTimeoutMs),
    });
  } catch (failure) {
    throw new NoConnectionError(path, failure);
  }
  const body = (await response.json().catch(() => null)) as { success?: boolean; data?: unknown } | null;
  if (!response.ok || !body?.success || !isData(body.data)) {
    throw new Error(`${path} unavailable (HTTP ${response.status})`);
  }
  return body.data;
};
