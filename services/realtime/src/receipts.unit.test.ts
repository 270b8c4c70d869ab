import { DomainError } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { parseSeenReports } from './receipts.ts';

const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? error.code : 'not a DomainError';
  }
  return 'no error';
};

describe('parseSeenReports', () => {
  it('accepts one report or a batch, with or without the own user id', () => {
    expect(parseSeenReports({ chatId: 'c1', messageId: 'm1' }, 'u1')).toEqual([
      { chatId: 'c1', messageId: 'm1' },
    ]);
    expect(
      parseSeenReports(
        [
          { chatId: 'c1', messageId: 'm1', userId: 'u1' },
          { chatId: 'c1', messageId: 'm2' },
        ],
        'u1',
      ),
    ).toEqual([
      { chatId: 'c1', messageId: 'm1' },
      { chatId: 'c1', messageId: 'm2' },
    ]);
  });

  it('refuses the whole batch when one report names another user', () => {
    expect(
      codeOf(() =>
        parseSeenReports(
          [
            { chatId: 'c1', messageId: 'm1' },
            { chatId: 'c1', messageId: 'm2', userId: 'u2' },
          ],
          'u1',
        ),
      ),
    ).toBe('FORBIDDEN');
  });

  it('refuses malformed input without throwing anything but a DomainError', () => {
    for (const bad of [
      null,
      'm1',
      42,
      { chatId: 'c1' },
      { chatId: 'c 1', messageId: 'm1' },
      [{}],
      { chatId: {}, messageId: 'x' },
    ]) {
      expect(codeOf(() => parseSeenReports(bad, 'u1'))).toBe('VALIDATION_FAILED');
    }
    const tooMany = Array.from({ length: 501 }, (_, i) => ({ chatId: 'c1', messageId: `m${i}` }));
    expect(codeOf(() => parseSeenReports(tooMany, 'u1'))).toBe('VALIDATION_FAILED');
  });
});
