import { errorCodes } from '@veil/contracts';
import { describe, expect, it } from 'vitest';
import { ar } from './ar.ts';
import { de } from './de.ts';
import { en, type Translation } from './en.ts';

const shipped: Record<string, Translation> = { en, de, ar };
const pluralSuffix = /_(zero|one|two|few|many|other)$/;

/** Every text of a resource by its dotted key. */
const flatten = (resource: Translation, prefix = ''): Map<string, string> => {
  const texts = new Map<string, string>();
  for (const [key, value] of Object.entries(resource)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') texts.set(path, value);
    else for (const [inner, text] of flatten(value, path)) texts.set(inner, text);
  }
  return texts;
};

/** Keys with their plural forms folded into one, e.g. `chats.unread`. */
const baseKeys = (texts: Map<string, string>) =>
  new Set([...texts.keys()].map((key) => key.replace(pluralSuffix, '')));

const variables = (text: string) => new Set([...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((match) => match[1]));

const english = flatten(en);
const englishPlurals = new Set(
  [...english.keys()].filter((key) => pluralSuffix.test(key)).map((key) => key.replace(pluralSuffix, '')),
);

describe.each(Object.entries(shipped).filter(([code]) => code !== 'en'))(
  'the %s translation',
  (code, resource) => {
    const texts = flatten(resource);

    it('has every text English has, and none English lacks', () => {
      const own = baseKeys(texts);
      expect([...baseKeys(english)].filter((key) => !own.has(key))).toEqual([]);
      expect([...own].filter((key) => !baseKeys(english).has(key))).toEqual([]);
    });

    it('has exactly the plural forms its language uses, for every counted text', () => {
      const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories.slice().sort();
      for (const base of englishPlurals) {
        const forms = [...texts.keys()]
          .filter((key) => key.replace(pluralSuffix, '') === base && pluralSuffix.test(key))
          .map((key) => pluralSuffix.exec(key)![1])
          .sort();
        expect({ base, forms }).toEqual({ base, forms: categories });
      }
    });

    it('uses only the placeholders English fills in, and no empty text', () => {
      for (const [key, text] of texts) {
        expect({ key, empty: text.trim() === '' }).toEqual({ key, empty: false });
        const allowed = new Set(
          [...english]
            .filter(([k]) => k.replace(pluralSuffix, '') === key.replace(pluralSuffix, ''))
            .flatMap(([, t]) => [...variables(t)]),
        );
        allowed.add('count');
        expect({ key, unknown: [...variables(text)].filter((name) => !allowed.has(name!)) }).toEqual({
          key,
          unknown: [],
        });
      }
    });
  },
);

describe('English', () => {
  it('has the plural forms English uses', () => {
    for (const base of englishPlurals) {
      expect(english.has(`${base}_one`) && english.has(`${base}_other`), base).toBe(true);
    }
  });

  it('names every error code the server sends', () => {
    expect(errorCodes.filter((code) => !english.has(`errors.${code}`))).toEqual([]);
  });
});
