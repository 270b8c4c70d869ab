import { createHash, randomBytes } from 'node:crypto';

/**
 * Refresh tokens are opaque: `<familyId>.<tokenId>.<secret>`. Only a SHA-256 digest of the whole
 * token is stored (in the event log), so a leaked log cannot be replayed as tokens.
 */
export interface ParsedRefreshToken {
  familyId: string;
  tokenId: string;
}

export const mintRefreshToken = (familyId: string, tokenId: string): string =>
  `${familyId}.${tokenId}.${randomBytes(32).toString('base64url')}`;

export const digestRefreshToken = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');

export const parseRefreshToken = (token: string): ParsedRefreshToken | null => {
  const match = /^([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return match ? { familyId: match[1]!, tokenId: match[2]! } : null;
};
