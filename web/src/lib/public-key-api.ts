import { apiPrefix } from './base-query.ts';
import { readAccessToken } from './storage.ts';

/** A user's published public key, base64 SPKI (`GET /user/publicKey/{id}`). */
export const fetchPublishedKey = async (userId: string): Promise<string> => {
  const token = readAccessToken();
  const response = await fetch(`${apiPrefix}user/publicKey/${encodeURIComponent(userId)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  const body = (await response.json()) as { success?: boolean; data?: { publicKey?: unknown } };
  if (!response.ok || !body.success || typeof body.data?.publicKey !== 'string') {
    throw new Error(`Public key of ${userId} unavailable (HTTP ${response.status})`);
  }
  return body.data.publicKey;
};
