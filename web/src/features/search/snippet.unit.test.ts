import { describe, expect, it } from 'vitest';
import { snippetOf } from './snippet.ts';

describe('search result snippets', () => {
  it('marks the terms found, whatever their case', () => {
    expect(snippetOf('Meet at the Lighthouse, then the lighthouse bar', ['lighthouse'])).toEqual([
      { text: 'Meet at the ', match: false },
      { text: 'Lighthouse', match: true },
      { text: ', then the ', match: false },
      { text: 'lighthouse', match: true },
      { text: ' bar', match: false },
    ]);
  });

  it('shows the words around a term deep in a long text, cut with an ellipsis', () => {
    const text = `${'word '.repeat(40)}needle ${'more '.repeat(40)}`;
    const parts = snippetOf(text, ['needle']);
    expect(parts[0]!.text.startsWith('…')).toBe(true);
    expect(parts.at(-1)!.text.endsWith('…')).toBe(true);
    expect(parts.filter((part) => part.match).map((part) => part.text)).toEqual(['needle']);
  });
});
