import { describe, expect, it } from 'vitest';
import { linkCodeOf, linkIdOfCode } from './link-code.ts';

const randomLinkId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

describe('link code', () => {
  it('round-trips any link id through 7 groups of 4 characters', async () => {
    for (const linkId of ['0'.repeat(32), 'f'.repeat(32), ...Array.from({ length: 200 }, randomLinkId)]) {
      const code = await linkCodeOf(linkId);
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){6}$/);
      expect(await linkIdOfCode(code)).toBe(linkId);
    }
  });

  it('reads a code typed loosely: any case, spaces or none, O for 0 and I or L for 1', async () => {
    const linkId = randomLinkId();
    const code = await linkCodeOf(linkId);
    const loose = code.toLowerCase().replace(/-/g, ' ').replace(/0/g, 'o').replace(/1/g, 'l');
    expect(await linkIdOfCode(loose)).toBe(linkId);
    expect(await linkIdOfCode(` ${code.replace(/-/g, '')}\n`)).toBe(linkId);
  });

  it('refuses malformed codes: wrong length, foreign characters, a typo caught by the check', async () => {
    const code = await linkCodeOf(randomLinkId());
    expect(await linkIdOfCode('')).toBeNull();
    expect(await linkIdOfCode(code.slice(0, -1))).toBeNull();
    expect(await linkIdOfCode(`${code}A`)).toBeNull();
    expect(await linkIdOfCode(code.replace(/.$/, 'U'))).toBeNull();
    expect(await linkIdOfCode(code.replace(/^./, '#'))).toBeNull();
    // Every single-character typo (in the id or the check) is refused, not read as another link.
    const canonical = code.replace(/-/g, '');
    let typos = 0;
    for (let i = 0; i < canonical.length; i += 1) {
      const wrong = canonical[i] === 'X' ? 'Y' : 'X';
      const typed = canonical.slice(0, i) + wrong + canonical.slice(i + 1);
      if ((await linkIdOfCode(typed)) === null) typos += 1;
    }
    expect(typos).toBeGreaterThanOrEqual(canonical.length - 1);
    await expect(linkCodeOf('not hex')).rejects.toThrow(TypeError);
  });
});
