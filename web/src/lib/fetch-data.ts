import { apiPrefix } from './base-query.ts';
import { readAccessToken } from './storage.ts';

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
  const response = await fetch(`${apiPrefix}${path}`, {
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(post ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(post ? { method: post.method ?? 'POST', body: JSON.stringify(post.json) } : {}),
  });
  const body = (await response.json().catch(() => null)) as { success?: boolean; data?: unknown } | null;
  if (!response.ok || !body?.success || !isData(body.data)) {
    throw new Error(`${path} unavailable (HTTP ${response.status})`);
  }
  return body.data;
};
