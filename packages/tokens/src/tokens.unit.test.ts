import { describe, expect, it } from 'vitest';
import { createAccessTokenSigner, createAccessTokenVerifier, generateTokenKeyPair } from './index.ts';

const setup = async (ttlSeconds = 60) => {
  const keys = await generateTokenKeyPair();
  let clock = Date.UTC(2026, 0, 1);
  const sign = await createAccessTokenSigner(keys.privateJwk, ttlSeconds);
  const verify = await createAccessTokenVerifier(keys.publicJwk, { now: () => clock });
  return {
    keys,
    verify,
    sign: async (userId: string) => (await sign(userId, 'test-session', new Date(clock))).token,
    advance: (ms: number) => (clock += ms),
  };
};

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: { code?: string }) => error.code,
  );

describe('access tokens', () => {
  it('verifies a token signed by the matching key, again from the cache', async () => {
    const { sign, verify } = await setup();
    const token = await sign('user-1');
    expect((await verify(token)).userId).toBe('user-1');
    expect((await verify(token)).userId).toBe('user-1');
  });

  it('rejects a token whose signature was altered, even after the genuine one was cached', async () => {
    const { sign, verify } = await setup();
    const token = await sign('user-1');
    await verify(token);
    const [header, payload, signature] = token.split('.');
    const flipped = `${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`;
    expect(await codeOf(verify(`${header}.${payload}.${flipped}`))).toBe('TOKEN_INVALID');
    // A payload claiming another user under the genuine signature is refused too.
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'user-2' }),
    ).toString('base64url');
    expect(await codeOf(verify(`${header}.${forged}.${signature}`))).toBe('TOKEN_INVALID');
  });

  it('rejects a token signed by another key', async () => {
    const mine = await setup();
    const theirs = await setup();
    expect(await codeOf(mine.verify(await theirs.sign('user-1')))).toBe('TOKEN_INVALID');
  });

  it('expires a cached token on time', async () => {
    const { sign, verify, advance } = await setup(60);
    const token = await sign('user-1');
    await verify(token);
    advance(59_000);
    expect(await codeOf(verify(token))).toBe('accepted');
    advance(1_000);
    expect(await codeOf(verify(token))).toBe('TOKEN_EXPIRED');
    expect(await codeOf(verify(token))).toBe('TOKEN_EXPIRED');
  });

  it('hands out copies, so a caller cannot change what the cache holds', async () => {
    const { sign, verify } = await setup();
    const token = await sign('user-1');
    const first = await verify(token);
    first.userId = 'someone-else';
    expect((await verify(token)).userId).toBe('user-1');
  });
});
