import { describe, expect, it } from 'vitest';
import { isPaddedBase64 } from './schemas.ts';

describe('isPaddedBase64', () => {
  it('accepts padded base64 of any length', () => {
    for (const bytes of [1, 2, 3, 12, 256, 4096]) {
      const encoded = Buffer.from(new Uint8Array(bytes).map((_, i) => i * 7)).toString('base64');
      expect(isPaddedBase64(encoded), encoded).toBe(true);
    }
  });

  it('refuses what atob alone would forgive, and anything outside the alphabet', () => {
    for (const bad of [
      'QUJD RA==',
      'QUJDRA',
      'QUJDR',
      'QU=DRA==',
      'A===',
      'QUJD\nRA==',
      'QUJD-A==',
      'QUJDRÄ==',
    ]) {
      expect(isPaddedBase64(bad), JSON.stringify(bad)).toBe(false);
    }
  });
});
