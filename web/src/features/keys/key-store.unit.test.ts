import type { SealedPrivateKey } from '@veil/crypto';
import { describe, expect, it } from 'vitest';
import { withKey, type StoredPrivateKey } from './key-store.ts';

/** Stand-ins: only `publicKey` tells keys apart here, the CryptoKey is never looked at. */
const key = (publicKey: string, storedAt: number): StoredPrivateKey => ({
  privateKey: { marker: publicKey } as unknown as CryptoKey,
  publicKey,
  storedAt,
});

describe('an account key list (withKey)', () => {
  it('starts a list for an account without keys', () => {
    expect(withKey(undefined, key('A', 1))).toEqual([key('A', 1)]);
  });

  it('adds another key after the ones kept, never dropping or replacing one', () => {
    const kept = [key('A', 1), key('B', 2)];
    expect(withKey(kept, key('C', 3))).toEqual([key('A', 1), key('B', 2), key('C', 3)]);
    expect(kept).toHaveLength(2); // the stored list is not changed in place
  });

  it('keeps the stored copy when the same key (same public key) is saved again', () => {
    const kept = [key('A', 1)];
    const again = withKey(kept, key('A', 9));
    expect(again).toEqual([key('A', 1)]);
    expect(again).not.toBe(kept);
  });

  it('gives a stored key the sealed copy it lacked, and never replaces one it has', () => {
    const sealed = (marker: string) => ({ sealingKey: { marker } }) as unknown as SealedPrivateKey;
    const kept = [key('A', 1), key('B', 2)];
    const restored = withKey(kept, { ...key('B', 9), sealed: sealed('new') });
    expect(restored).toEqual([key('A', 1), { ...key('B', 2), sealed: sealed('new') }]);
    expect(kept[1]!.sealed).toBeUndefined();
    const again = withKey(restored, { ...key('B', 10), sealed: sealed('newer') });
    expect(again[1]!.sealed).toEqual(sealed('new'));
  });
});
