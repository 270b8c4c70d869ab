import type { MessageMention } from '@veil/crypto';

/**
 * Mentions as text and ranges: what the composer does to them while typing, and how a message's
 * text splits into plain runs and mentions for showing. Pure functions, no React.
 */

/** A part of a message's text as shown: plain text, or a member named by id with their current name. */
export type MentionSegment =
  { kind: 'text'; text: string } | { kind: 'mention'; userId: string; name: string };

/**
 * `text` split around its mentions. A mention of someone `nameOf` does not know (not a member of
 * the chat, or no longer one) stays the plain text the sender wrote, as does any range the text
 * cannot hold: the ranges came from another browser.
 */
export const mentionSegments = (
  text: string,
  mentions: readonly MessageMention[] | undefined,
  nameOf: (userId: string) => string | undefined,
): MentionSegment[] => {
  const segments: MentionSegment[] = [];
  let plain = '';
  let at = 0;
  for (const { userId, start, length } of [...(mentions ?? [])].sort((a, b) => a.start - b.start)) {
    const name = nameOf(userId);
    if (name === undefined || start < at || start + length > text.length || length <= 0) continue;
    plain += text.slice(at, start);
    if (plain) segments.push({ kind: 'text', text: plain });
    plain = '';
    segments.push({ kind: 'mention', userId, name });
    at = start + length;
  }
  plain += text.slice(at);
  if (plain) segments.push({ kind: 'text', text: plain });
  return segments;
};

/** Whether a message names `userId` (its mentions as read: already checked against its text). */
export const mentionsUser = (mentions: readonly MessageMention[] | undefined, userId: string): boolean =>
  (mentions ?? []).some((mention) => mention.userId === userId);

/**
 * The mentions after the text changed from `before` to `after` (one edit: typing, a paste, a
 * deletion): those before the change stay, those after it move with the text, and one the change
 * touched is dropped: what is left of it is plain text.
 */
export const shiftMentions = (
  before: string,
  after: string,
  mentions: readonly MessageMention[],
): MessageMention[] => {
  if (before === after) return [...mentions];
  let prefix = 0;
  const shortest = Math.min(before.length, after.length);
  while (prefix < shortest && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  )
    suffix += 1;
  const changedEnd = before.length - suffix;
  const delta = after.length - before.length;
  return mentions.flatMap((mention) => {
    const end = mention.start + mention.length;
    if (end <= prefix) return [mention];
    if (mention.start >= changedEnd) return [{ ...mention, start: mention.start + delta }];
    return [];
  });
};

/** The "@query" being typed just before the caret, where a member picker opens; null: none. */
export const mentionQueryAt = (
  text: string,
  caret: number,
  mentions: readonly MessageMention[],
): { start: number; query: string } | null => {
  const start = text.lastIndexOf('@', caret - 1);
  if (start < 0) return null;
  // "@" starts a word (not an e-mail address), and the query is one word so far.
  if (start > 0 && !/\s/.test(text[start - 1]!)) return null;
  const query = text.slice(start + 1, caret);
  if (/\s/.test(query) || query.length > 64) return null;
  if (mentions.some((m) => start < m.start + m.length && caret > m.start)) return null;
  return { start, query };
};

/** "@name " in place of the query from `start` to `caret`: the new text, its mentions and where the caret goes. */
export const insertMention = (
  text: string,
  mentions: readonly MessageMention[],
  { start, caret }: { start: number; caret: number },
  member: { _id: string; username: string },
): { text: string; mentions: MessageMention[]; caret: number } => {
  const label = `@${member.username}`;
  const following = text.slice(caret);
  const spacer = following.startsWith(' ') ? '' : ' ';
  const next = `${text.slice(0, start)}${label}${spacer}${following}`;
  const moved = shiftMentions(text, next, mentions);
  return {
    text: next,
    mentions: [...moved, { userId: member._id, start, length: label.length }].sort(
      (a, b) => a.start - b.start,
    ),
    caret: start + label.length + 1,
  };
};

/**
 * A message's text with each mention of a known member written as "@" and their current name,
 * and the ranges moved to match: what an edit starts from, so it keeps the names shown.
 */
export const withCurrentNames = (
  text: string,
  mentions: readonly MessageMention[] | undefined,
  nameOf: (userId: string) => string | undefined,
): { text: string; mentions: MessageMention[] } => {
  let written = '';
  let at = 0;
  const kept: MessageMention[] = [];
  for (const { userId, start, length } of [...(mentions ?? [])].sort((a, b) => a.start - b.start)) {
    const name = nameOf(userId);
    if (name === undefined || start < at || start + length > text.length) continue;
    written += text.slice(at, start);
    const label = `@${name}`;
    kept.push({ userId, start: written.length, length: label.length });
    written += label;
    at = start + length;
  }
  return { text: written + text.slice(at), mentions: kept };
};

/** Members whose name contains what was typed after "@" (case-insensitive, in NFC as the chat filter compares), best first. */
export const membersMatching = <M extends { _id: string; username: string }>(
  members: readonly M[],
  query: string,
): M[] => {
  const fold = (value: string) => value.normalize('NFC').toLowerCase();
  const wanted = fold(query);
  const found = members.filter((member) => fold(member.username).includes(wanted));
  // Names that start with it first, then by name.
  return found.sort(
    (a, b) =>
      Number(fold(b.username).startsWith(wanted)) - Number(fold(a.username).startsWith(wanted)) ||
      a.username.localeCompare(b.username),
  );
};
