import {
  generateLinkKeyPair,
  linkCodeOf,
  linkCommitment,
  linkIdOfCode,
  linkQrTextOf,
  readLinkQrText,
} from '@veil/crypto';
import { describe, expect, it } from 'vitest';
import { qrModules } from './qr-draw.ts';
import { readQrText, type Pixels } from './qr-read.ts';

/** Draws the modules as a camera would see a screen: `scale` pixels a module, a white quiet zone. */
const rasterize = (modules: boolean[][], scale: number, quiet = 4): Pixels => {
  const side = (modules.length + quiet * 2) * scale;
  const data = new Uint8ClampedArray(side * side * 4).fill(255);
  modules.forEach((row, r) =>
    row.forEach((dark, c) => {
      if (!dark) return;
      for (let y = 0; y < scale; y += 1)
        for (let x = 0; x < scale; x += 1) {
          const at = (((r + quiet) * scale + y) * side + (c + quiet) * scale + x) * 4;
          data.fill(0, at, at + 3);
        }
    }),
  );
  return { data, width: side, height: side };
};

describe('link code as a QR code', () => {
  it('is drawn by qrcode and read back by jsqr as the same code and link', async () => {
    const linkId = 'a'.repeat(8) + '0123456789abcdef' + 'f'.repeat(8);
    const code = await linkCodeOf(linkId);
    const modules = qrModules(code);
    expect(modules.length).toBeGreaterThanOrEqual(21);
    const read = readQrText(rasterize(modules, 4));
    expect(read).toBe(code);
    expect(await linkIdOfCode(read!)).toBe(linkId);
  });

  it('carries the commitment to the new browser’s key beside the code, and reads both back', async () => {
    const linkId = '0123456789abcdef'.repeat(2);
    const code = await linkCodeOf(linkId);
    const commitment = await linkCommitment((await generateLinkKeyPair()).publicKey);
    const read = readQrText(rasterize(qrModules(linkQrTextOf(code, commitment)), 4));
    expect(readLinkQrText(read!)).toEqual({ code, commitment });
  });

  it('finds nothing in an image without a code', () => {
    const blank = { data: new Uint8ClampedArray(200 * 200 * 4).fill(255), width: 200, height: 200 };
    expect(readQrText(blank)).toBeNull();
  });
});
