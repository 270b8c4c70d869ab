/**
 * Mentions inside a message's sealed content: who is named, and where in the text. The text
 * keeps "@Name" as the sender wrote it, so a reader that knows nothing of mentions (a push, a
 * preview, a quote, a forward) still reads it; the range lets a reader show the member's current
 * name instead. Offsets are UTF-16 code units of the text, as JavaScript strings count them.
 */
export interface MessageMention {
  userId: string;
  start: number;
  length: number;
}

/** More mentions than this in one message are dropped: nobody names a thousand members. */
export const maxMentions = 256;
const maxUserIdLength = 128;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether `at` falls between the two halves of one character (an emoji, say). */
const splitsCharacter = (text: string, at: number) =>
  at > 0 &&
  at < text.length &&
  isHighSurrogate(text.charCodeAt(at - 1)) &&
  isLowSurrogate(text.charCodeAt(at));

const isOffset = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

const mentionOf = (value: unknown, text: string): MessageMention | null => {
  const m = value as Partial<MessageMention> | null;
  if (!m || typeof m.userId !== 'string' || !m.userId || m.userId.length > maxUserIdLength) return null;
  if (!isOffset(m.start) || !isOffset(m.length) || m.length === 0) return null;
  const end = m.start + m.length;
  if (end > text.length || splitsCharacter(text, m.start) || splitsCharacter(text, end)) return null;
  return { userId: m.userId, start: m.start, length: m.length };
};

/**
 * The mentions a sender's content claims that `text` can hold: whatever came from another
 * browser is checked here, and a range out of bounds, empty, splitting a character or overlapping
 * an earlier one is left out (its text then reads as plain text). Sorted by where they start.
 */
export const sanitizeMentions = (value: unknown, text: string): MessageMention[] => {
  if (!Array.isArray(value)) return [];
  const candidates = value
    .slice(0, maxMentions)
    .map((item) => mentionOf(item, text))
    .filter((m): m is MessageMention => m !== null)
    .sort((a, b) => a.start - b.start);
  const kept: MessageMention[] = [];
  for (const mention of candidates) {
    const previous = kept.at(-1);
    if (!previous || mention.start >= previous.start + previous.length) kept.push(mention);
  }
  return kept;
};
