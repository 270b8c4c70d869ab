import { describe, expect, it } from 'vitest';
import { KeyBundleError, parseKeyBundle, serializeKeyBundle } from './key-bundle.ts';

const key = { publicKey: 'MIIB', privateKey: { kty: 'RSA', n: 'x', e: 'AQAB' } };
const signingKey = { publicKey: 'MFkw', privateKey: { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'd' } };

describe('account key bundle', () => {
  it('round-trips the keys, in order, with the signing keys and the account state', () => {
    const keys = [key, { ...key, publicKey: 'older' }];
    const state = { version: 1, madeEntries: null, contacts: {} };
    expect(parseKeyBundle(serializeKeyBundle(keys, [signingKey], state))).toEqual({
      version: 2,
      keys,
      signingKeys: [signingKey],
      state,
    });
  });

  it('still reads a version 1 bundle (from a browser that carries no account state)', () => {
    expect(parseKeyBundle(JSON.stringify({ version: 1, keys: [key], signingKeys: [signingKey] }))).toEqual({
      version: 1,
      keys: [key],
      signingKeys: [signingKey],
    });
  });

  it('reads a bundle without signing keys (from a browser that held none)', () => {
    expect(parseKeyBundle(JSON.stringify({ version: 1, keys: [key] }))).toEqual({
      version: 1,
      keys: [key],
      signingKeys: [],
    });
  });

  it('refuses what it cannot read: not JSON, another version, no keys, keys of the wrong shape', () => {
    for (const text of [
      'not json',
      'null',
      JSON.stringify({ version: 3, keys: [key] }),
      JSON.stringify({ version: 1, keys: [] }),
      JSON.stringify({ version: 1, keys: [{ publicKey: 1, privateKey: {} }] }),
      JSON.stringify({ version: 1, keys: [{ publicKey: 'p', privateKey: null }] }),
      JSON.stringify({ version: 1, keys: Array.from({ length: 33 }, () => key) }),
      JSON.stringify({ version: 1, keys: [key], signingKeys: [{ publicKey: 'p' }] }),
      JSON.stringify({ version: 1, keys: [key], signingKeys: 'none' }),
    ])
      expect(() => parseKeyBundle(text), text).toThrow(KeyBundleError);
    expect(() => parseKeyBundle(JSON.stringify({ version: 3, keys: [key] }))).toThrow(/newer Veil/);
  });
});
