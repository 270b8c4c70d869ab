/** A piece of a translated sentence: its own words, or a value put into it (a name, a text). */
export type SentencePart = string | { value: string };

/** Stands in for a value inside the translated sentence until it is split around it. */
const marker = '\uE000';

/**
 * A translated sentence with the values put into it kept apart, so the screen can isolate
 * their direction (`<bdi>`): a Hebrew name in an English line, or an English name in an
 * Arabic one, then cannot reorder the words around it. `write` gets `slot`, which stands a
 * value in for a placeholder.
 */
export const sentenceParts = (write: (slot: (value: string) => string) => string): SentencePart[] => {
  const values: string[] = [];
  const text = write((value) => `${marker}${values.push(value) - 1}${marker}`);
  return text
    .split(new RegExp(`${marker}(\\d+)${marker}`))
    .flatMap((piece, index): SentencePart[] =>
      index % 2 ? [{ value: values[Number(piece)]! }] : piece ? [piece] : [],
    );
};

/** The sentence as plain text. */
export const sentenceText = (parts: readonly SentencePart[]): string =>
  parts.map((part) => (typeof part === 'string' ? part : part.value)).join('');
