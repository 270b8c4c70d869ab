import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import pLimit from 'p-limit';

/**
 * Passwords are hashed with scrypt (memory-hard, in node:crypto, no native addon to build).
 * N=2^15, r=8 costs 32 MiB and ~50-100 ms per hash on this hardware; parameters are stored
 * with the hash so they can be raised later without breaking old hashes.
 */
const params = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const MAXMEM = 128 * 1024 * 1024;

/** The cost of one new hash, for the login benchmark (bench/src/login-bench.ts). */
export const passwordHashCost = { ...params, keyLength: KEY_LENGTH, maxmem: MAXMEM } as const;

/**
 * scrypt runs on libuv's thread pool (4 threads), which file I/O shares: the embedded event log's
 * fsync included. At most two hashes at a time keeps a burst of logins from stalling every append.
 */
const hashing = pLimit(2);

const derive = (password: string, salt: Buffer, options: ScryptOptions) =>
  hashing(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: MAXMEM }, (err, key) =>
          err ? reject(err) : resolve(key),
        ),
      ),
  );

export const hashPassword = async (password: string): Promise<string> => {
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64'), key.toString('base64')].join('$');
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** Verifying against this when the user does not exist keeps "no such user" as slow as "wrong password". */
export const dummyHashPromise = hashPassword('veil-timing-equaliser');
