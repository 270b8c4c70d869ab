import { SignJWT, errors, exportJWK, generateKeyPair, importJWK, jwtVerify, type JWK } from 'jose';
import { LRUCache } from 'lru-cache';
import { DomainError } from '@veil/contracts';

/**
 * Access tokens: short-lived EdDSA (Ed25519) JWTs. Only the auth service holds the private key;
 * the API gateway and the realtime gateway verify with the public key, so a compromised edge
 * process cannot mint tokens.
 */
export const ACCESS_TOKEN_ISSUER = 'veil';
export const ACCESS_TOKEN_AUDIENCE = 'veil-api';
const ALG = 'EdDSA';

export interface AccessClaims {
  userId: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** The session (refresh-token family) the token was minted in; revoking it revokes the token. */
  sessionId?: string;
}

export interface TokenKeyPair {
  privateJwk: JWK;
  publicJwk: JWK;
}

export const generateTokenKeyPair = async (): Promise<TokenKeyPair> => {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { crv: 'Ed25519', extractable: true });
  return { privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
};

export const createAccessTokenSigner = async (privateJwk: JWK, ttlSeconds: number) => {
  const key = await importJWK(privateJwk, ALG);
  return async (
    userId: string,
    sessionId: string,
    now: Date,
  ): Promise<{ token: string; expiresAt: Date }> => {
    const iat = Math.floor(now.getTime() / 1000);
    const exp = iat + ttlSeconds;
    const token = await new SignJWT({ sid: sessionId })
      .setProtectedHeader({ alg: ALG })
      .setSubject(userId)
      .setIssuer(ACCESS_TOKEN_ISSUER)
      .setAudience(ACCESS_TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(exp)
      .sign(key);
    return { token, expiresAt: new Date(exp * 1000) };
  };
};

export type AccessTokenVerifier = (token: string) => Promise<AccessClaims>;

export interface VerifierOptions {
  /** Verified tokens remembered, so a client's next request skips the signature check. Default 50,000. */
  cacheSize?: number;
  /** Milliseconds since the epoch; a test clock can be passed. */
  now?: () => number;
  /** Whether a session was revoked (logout, password change, refresh-token reuse). */
  isRevoked?: (sessionId: string) => boolean;
}

/**
 * Rejects with DomainError TOKEN_EXPIRED or TOKEN_INVALID; never with a library error.
 *
 * A token's signature is checked once: the result is cached under the whole token string (its
 * signature included, so no other string can hit the entry) until the token expires, and the
 * expiry is still checked on every hit. An access token carries nothing that could change before
 * it expires, so the cache answers exactly what a fresh check would. It saves the gateways an
 * Ed25519 verification per request, which was the largest single cost of a message send.
 */
export const createAccessTokenVerifier = async (
  publicJwk: JWK,
  options: VerifierOptions = {},
): Promise<AccessTokenVerifier> => {
  const key = await importJWK(publicJwk, ALG);
  const now = options.now ?? Date.now;
  const verified = new LRUCache<string, AccessClaims>({ max: options.cacheSize ?? 50_000 });

  const verifySignature = async (token: string): Promise<AccessClaims> => {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: [ALG],
        issuer: ACCESS_TOKEN_ISSUER,
        audience: ACCESS_TOKEN_AUDIENCE,
        currentDate: new Date(now()),
      });
      if (typeof payload.sub !== 'string' || typeof payload.exp !== 'number') {
        throw new DomainError('TOKEN_INVALID', 'Invalid token');
      }
      return {
        userId: payload.sub,
        exp: payload.exp,
        ...(typeof payload.sid === 'string' && { sessionId: payload.sid }),
      };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if (error instanceof errors.JWTExpired) throw new DomainError('TOKEN_EXPIRED', 'Token expired');
      throw new DomainError('TOKEN_INVALID', 'Invalid token');
    }
  };

  // Revocation is checked on every use, cached or not: it can happen at any moment.
  const unlessRevoked = (claims: AccessClaims): AccessClaims => {
    if (claims.sessionId && options.isRevoked?.(claims.sessionId))
      throw new DomainError('TOKEN_REVOKED', 'This session has ended; please log in again');
    return { ...claims };
  };

  return async (token) => {
    const cached = verified.get(token);
    if (cached) {
      if (cached.exp * 1000 > now()) return unlessRevoked(cached);
      verified.delete(token);
      throw new DomainError('TOKEN_EXPIRED', 'Token expired');
    }
    const claims = await verifySignature(token);
    verified.set(token, claims);
    return unlessRevoked(claims);
  };
};
export { followSessionRevocations, type SessionRevocations } from './session-revocations.ts';
