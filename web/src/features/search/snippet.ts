/** A part of a found message's text: `match` parts are the query's terms. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

const around = 40;

/**
 * The words around the first term found in `text`, with every term marked, so a result shows
 * why it matched. Terms are matched case-insensitively; text without them is cut at the start.
 */
export const snippetOf = (text: string, terms: readonly string[]): SnippetPart[] => {
  const flat = text.replace(/\s+/g, ' ').trim();
  const lower = flat.toLowerCase();
  const wanted = terms.map((term) => term.toLowerCase()).filter(Boolean);
  const first = Math.min(...wanted.map((term) => lower.indexOf(term)).filter((at) => at >= 0), Infinity);
  const start = Number.isFinite(first) ? Math.max(0, first - around) : 0;
  const end = Math.min(flat.length, (Number.isFinite(first) ? first : 0) + around * 2);
  const window = `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`;
  if (!wanted.length) return [{ text: window, match: false }];
  const pattern = new RegExp(
    `(${wanted.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`,
    'gi',
  );
  return window
    .split(pattern)
    .filter(Boolean)
    .map((part) => ({ text: part, match: wanted.includes(part.toLowerCase()) }));
};
