import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/**
 * How guessable a backup passphrase is, by zxcvbn-ts with its common dictionaries and those of
 * each language the app speaks (English, German, Arabic: a passphrase is often typed in another
 * language than the screen's). The estimator and its dictionaries (a few MB) are loaded on the
 * first screen that sets a passphrase, never with the first page.
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/** zxcvbn's 3: "safely unguessable", a guess budget of 10^10, against a slow (Argon2id) hash. */
export const minPassphraseScore: StrengthScore = 3;

export const strengthWarnings = [
  'straightRow',
  'keyPattern',
  'simpleRepeat',
  'extendedRepeat',
  'sequences',
  'recentYears',
  'dates',
  'topTen',
  'topHundred',
  'common',
  'similarToCommon',
  'wordByItself',
  'namesByThemselves',
  'commonNames',
  'userInputs',
] as const;
export const strengthSuggestions = [
  'l33t',
  'reverseWords',
  'allUppercase',
  'capitalization',
  'dates',
  'recentYears',
  'associatedYears',
  'sequences',
  'repeated',
  'longerKeyboardPattern',
  'anotherWord',
  'useWords',
  'noNeed',
] as const;
export type StrengthWarning = (typeof strengthWarnings)[number];
export type StrengthSuggestion = (typeof strengthSuggestions)[number];

export interface PassphraseStrength {
  score: StrengthScore;
  /** Keys of passphrase.warnings / passphrase.suggestions (zxcvbn's own keys, translated by the app). */
  warning: StrengthWarning | null;
  suggestions: StrengthSuggestion[];
}

const prefixed = (language: string, dictionary: Record<string, (string | number)[]>) =>
  Object.fromEntries(Object.entries(dictionary).map(([name, words]) => [`${name}-${language}`, words]));

let estimator: Promise<ZxcvbnFactory> | null = null;

/** Loads the estimator once; screens call it when they open so the first keystroke finds it ready. */
export const loadStrengthEstimator = (): Promise<ZxcvbnFactory> => {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en, de, ar] = await Promise.all([
      import('@zxcvbn-ts/core'),
      import('@zxcvbn-ts/language-common'),
      import('@zxcvbn-ts/language-en'),
      import('@zxcvbn-ts/language-de'),
      import('@zxcvbn-ts/language-ar'),
    ]);
    return new ZxcvbnFactory({
      graphs: common.adjacencyGraphs,
      dictionary: {
        ...common.dictionary,
        ...en.dictionary,
        ...prefixed('de', de.dictionary),
        ...prefixed('ar', ar.dictionary),
      },
    });
  })();
  estimator.catch(() => {
    estimator = null; // a failed chunk load is tried again next time
  });
  return estimator;
};

const isWarning = (key: string | null): key is StrengthWarning =>
  key !== null && (strengthWarnings as readonly string[]).includes(key);
const isSuggestion = (key: string): key is StrengthSuggestion =>
  (strengthSuggestions as readonly string[]).includes(key);

/**
 * The passphrase's score and feedback. `userInputs` are words the passphrase should not lean on
 * (the username, the account password): they count as already guessed.
 */
export const estimatePassphrase = async (
  passphrase: string,
  userInputs: readonly string[] = [],
): Promise<PassphraseStrength> => {
  const zxcvbn = await loadStrengthEstimator();
  const result = await zxcvbn.checkAsync(passphrase, userInputs.filter(Boolean) as string[]);
  return {
    score: result.score as StrengthScore,
    warning: isWarning(result.feedback.warning) ? result.feedback.warning : null,
    suggestions: result.feedback.suggestions.filter(isSuggestion),
  };
};

/** The same text, however typed: the account password reused as the passphrase, compared as both are used. */
export const isAccountPassword = (passphrase: string, accountPassword: string | undefined): boolean =>
  Boolean(accountPassword) && passphrase.normalize('NFC') === accountPassword!.normalize('NFC');
