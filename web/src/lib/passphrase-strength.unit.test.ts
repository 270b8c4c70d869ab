import { describe, expect, it } from 'vitest';
import { estimatePassphrase, isAccountPassword, minPassphraseScore } from './passphrase-strength.ts';

/** The estimator with its real dictionaries: what the passphrase screens refuse and accept. */
describe('passphrase strength', () => {
  it('scores common passwords, keyboard rows and single words below the minimum, with feedback keys', async () => {
    for (const weak of ['password1234', 'qwertyuiopasdf', 'iloveyou2024!', 'Passwort12345', 'Sonnenblumen'])
      expect((await estimatePassphrase(weak)).score, weak).toBeLessThan(minPassphraseScore);
    const common = await estimatePassphrase('password1234');
    expect(common.warning).toMatch(/^(topTen|topHundred|common|similarToCommon)$/);
  });

  it('accepts several uncommon words', async () => {
    const strong = await estimatePassphrase('violet tractor gambles under moonlit quarries');
    expect(strong.score).toBeGreaterThanOrEqual(minPassphraseScore);
  });

  it('counts the username and the account password as already guessed', async () => {
    const passphrase = 'zephyrine-quockle-9';
    const alone = await estimatePassphrase(passphrase);
    const leaning = await estimatePassphrase(passphrase, ['zephyrine-quockle-9']);
    expect(leaning.score).toBeLessThan(alone.score);
    expect(leaning.score).toBeLessThan(minPassphraseScore);
  });

  it('recognises the account password however it was normalised, and nothing else', () => {
    expect(isAccountPassword('café au lait 1', 'cafe\u0301 au lait 1')).toBe(true);
    expect(isAccountPassword('café au lait 1', 'café au lait 2')).toBe(false);
    expect(isAccountPassword('anything at all', undefined)).toBe(false);
  });
});
