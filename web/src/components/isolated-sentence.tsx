import type { SentencePart } from '../lib/bidi.ts';

/** A sentence whose values (names, texts) each sit in a `<bdi>` of their own. */
export const IsolatedSentence = ({ parts }: { parts: readonly SentencePart[] }) =>
  parts.map((part, index) => (typeof part === 'string' ? part : <bdi key={index}>{part.value}</bdi>));
