import type { KeyLogView, KeyStatus } from '@veil/contracts';
import { apiPrefix } from './base-query.ts';
import { readAccessToken } from './storage.ts';

/**
 * Key lookups that the crypto layer makes outside RTK Query (they run inside other queries and
 * at session start): one fetch each, the stored token if any, and an error on anything but success.
 */
const fetchData = async <T>(
  path: string,
  isData: (data: unknown) => data is T,
  post?: { json: unknown },
): Promise<T> => {
  const token = readAccessToken();
  const response = await fetch(`${apiPrefix}${path}`, {
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(post ? { 'Content-Type': 'application/json' } : {}),
    },
    ...(post ? { method: 'POST', body: JSON.stringify(post.json) } : {}),
  });
  const body = (await response.json().catch(() => null)) as { success?: boolean; data?: unknown } | null;
  if (!response.ok || !body?.success || !isData(body.data)) {
    throw new Error(`${path} unavailable (HTTP ${response.status})`);
  }
  return body.data;
};

const hasPublicKey = (data: unknown): data is { publicKey: string } =>
  typeof (data as { publicKey?: unknown } | null)?.publicKey === 'string';

/** A user's published public key, base64 SPKI (`GET /user/publicKey/{id}`). */
export const fetchPublishedKey = async (userId: string): Promise<string> =>
  (await fetchData(`user/publicKey/${encodeURIComponent(userId)}`, hasPublicKey)).publicKey;

const isKeyStatus = (data: unknown): data is KeyStatus =>
  hasPublicKey(data) && typeof (data as KeyStatus).publishedAt === 'string';

/** The logged-in account's published key, when it was published, and its backup summary. */
export const fetchKeyStatus = (): Promise<KeyStatus> => fetchData('user/keyStatus', isKeyStatus);

/** Publishes the account's first signing key (`POST /user/signingKey`). */
export const publishSigningKey = (signingKey: string): Promise<KeyStatus> =>
  fetchData('user/signingKey', isKeyStatus, { json: { signingKey } });

const isKeyLog = (data: unknown): data is KeyLogView =>
  Array.isArray((data as KeyLogView | null)?.entries) && typeof (data as KeyLogView).current === 'object';

/** A user's key-change log and current keys (`GET /users/{id}/keyLog`), unchecked: see `contact-keys.ts`. */
export const fetchKeyLog = (userId: string): Promise<KeyLogView> =>
  fetchData(`users/${encodeURIComponent(userId)}/keyLog`, isKeyLog);
