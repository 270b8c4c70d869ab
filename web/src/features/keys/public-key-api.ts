import type { KeyLogView, KeyStatus } from '@veil/contracts';
import type { SignedKeyLogEntry } from '@veil/crypto';
import { fetchData } from '../../lib/fetch-data.ts';

const hasPublicKey = (data: unknown): data is { publicKey: string } =>
  typeof (data as { publicKey?: unknown } | null)?.publicKey === 'string';

const isKeyStatus = (data: unknown): data is KeyStatus =>
  hasPublicKey(data) && typeof (data as KeyStatus).publishedAt === 'string';

/**
 * The logged-in account's key status and backup summary. Not a source of keys to seal for or
 * re-wrap to: those come from checked key logs only (`checked-keys.ts`).
 */
export const fetchKeyStatus = (): Promise<KeyStatus> => fetchData('user/keyStatus', isKeyStatus);

/** Publishes the account's first signing key by its signed entry (`POST /user/signingKey`). */
export const publishSigningKey = (entry: SignedKeyLogEntry): Promise<KeyStatus> =>
  fetchData('user/signingKey', isKeyStatus, { json: { entry } });

/** Re-publishes the account's current keys by a signed `attested` entry (`POST /user/attestKeys`). */
export const attestKeys = (entry: SignedKeyLogEntry): Promise<KeyStatus> =>
  fetchData('user/attestKeys', isKeyStatus, { json: { entry } });

const isKeyLog = (data: unknown): data is KeyLogView =>
  Array.isArray((data as KeyLogView | null)?.entries) && typeof (data as KeyLogView).current === 'object';

/** A user's key-change log and current keys (`GET /users/{id}/keyLog`), unchecked: see `contact-keys.ts`. */
export const fetchKeyLog = (userId: string): Promise<KeyLogView> =>
  fetchData(`users/${encodeURIComponent(userId)}/keyLog`, isKeyLog);
