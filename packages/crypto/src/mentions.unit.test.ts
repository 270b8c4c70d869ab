import { describe, expect, it } from 'vitest';
import { decodeMessageContent, encodeMessageContent } from './message-content.ts';
import { maxMentions, sanitizeMentions } from './mentions.ts';

const text = 'Hi @bob and @carol 👋';
const bob = { userId: 'u-bob', start: 3, length: 4 };
const carol = { userId: 'u-carol', start: 12, length: 6 };

describe('mentions in the sealed content', () => {
  it('travel inside the versioned body and come back as sent', () => {
    const sealed = encodeMessageContent({ text, attachments: [], mentions: [bob, carol] });
    expect(sealed.startsWith('\u0000veil:2\n')).toBe(true);
    expect(decodeMessageContent(sealed)).toEqual({ text, attachments: [], mentions: [bob, carol] });
  });

  it('leave a text without mentions as the plain text it always was', () => {
    expect(encodeMessageContent({ text: 'plain', attachments: [], mentions: [] })).toBe('plain');
    expect(decodeMessageContent('plain @bob').mentions).toBeUndefined();
  });

  it('drop a forged range that lies outside the text, instead of failing to read the message', () => {
    const forged = `\u0000veil:2\n${JSON.stringify({
      text,
      attachments: [],
      mentions: [bob, { userId: 'u-eve', start: 15, length: 99 }, { userId: 'u-eve', start: 500, length: 1 }],
    })}`;
    expect(decodeMessageContent(forged)).toEqual({ text, attachments: [], mentions: [bob] });
  });
});

describe('sanitizeMentions', () => {
  it('keeps ranges within the text, sorted by where they start', () => {
    expect(sanitizeMentions([carol, bob], text)).toEqual([bob, carol]);
    expect(sanitizeMentions([{ userId: 'u', start: 0, length: text.length }], text)).toHaveLength(1);
  });

  it.each([
    ['past the end', { userId: 'u', start: 3, length: text.length }],
    ['starting past the end', { userId: 'u', start: text.length, length: 1 }],
    ['negative', { userId: 'u', start: -1, length: 2 }],
    ['empty', { userId: 'u', start: 3, length: 0 }],
    ['fractional', { userId: 'u', start: 3.5, length: 2 }],
    ['huge', { userId: 'u', start: Number.MAX_VALUE, length: 1 }],
    ['a string offset', { userId: 'u', start: '3', length: 4 }],
    ['without a user', { start: 3, length: 4 }],
    ['with an empty user', { userId: '', start: 3, length: 4 }],
    ['with a user id of another type', { userId: 42, start: 3, length: 4 }],
    ['splitting an emoji', { userId: 'u', start: text.length - 1, length: 1 }],
  ])('ignores a range %s', (_what, range) => {
    expect(sanitizeMentions([range, bob], text)).toEqual([bob]);
  });

  it('ignores what is not a list of ranges', () => {
    for (const value of [null, undefined, 'mentions', 7, { 0: bob }, [null, 1, 'x']])
      expect(sanitizeMentions(value, text)).toEqual([]);
  });

  it('keeps the first of two overlapping ranges', () => {
    expect(sanitizeMentions([bob, { userId: 'u-eve', start: 5, length: 3 }], text)).toEqual([bob]);
  });

  it('reads no more than the most mentions a message may carry', () => {
    const long = 'x'.repeat(maxMentions * 2);
    const many = Array.from({ length: maxMentions * 2 }, (_, i) => ({ userId: 'u', start: i, length: 1 }));
    expect(sanitizeMentions(many, long)).toHaveLength(maxMentions);
  });
});
