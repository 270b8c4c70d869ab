import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { en } from '../locales/en.ts';
import { storageKeys } from './storage.ts';

/** The shipped languages, each named in its own language for the switch on the profile page. */
export const languages = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
  { code: 'ar', name: 'العربية' },
] as const;

export type LanguageCode = (typeof languages)[number]['code'];

export const i18n = i18next.createInstance();

/** Puts the language and its writing direction on <html>, so RTL layout and screen-reader voices follow. */
const applyToDocument = (language: string) => {
  if (typeof document === 'undefined') return; // unit tests run the models in Node
  document.documentElement.lang = language;
  document.documentElement.dir = i18n.dir(language);
};

i18n.on('languageChanged', applyToDocument);

/**
 * Each language is a chunk of its own (none is in the first page's script), loaded before the
 * first render (`i18nReady`, which main.tsx waits for) or when the user picks it. Every
 * language is complete (locales.unit.test.ts), so English is loaded only for those who read it.
 */
const loaders: Record<LanguageCode, () => Promise<object>> = {
  en: () => import('../locales/en.ts').then((module) => module.en),
  de: () => import('../locales/de.ts').then((module) => module.de),
  ar: () => import('../locales/ar.ts').then((module) => module.ar),
};

/** Makes a language's texts available (a no-op for one already loaded). */
export const loadLanguage = async (code: string): Promise<void> => {
  const load = loaders[code as keyof typeof loaders];
  if (!load || i18n.hasResourceBundle(code, 'translation')) return;
  i18n.addResourceBundle(code, 'translation', await load());
};

/** A choice made on the profile page (stored only then), else the browser's languages in their order, else English. */
const detectLanguage = (): LanguageCode => {
  const supported = (tag: string | null | undefined) =>
    languages.find((language) => tag?.toLowerCase().split('-')[0] === language.code)?.code;
  if (typeof window === 'undefined') return 'en'; // unit tests run the models in Node
  let chosen: string | null = null;
  try {
    chosen = localStorage.getItem(storageKeys.language);
  } catch {
    // Storage blocked: the browser's languages decide.
  }
  return supported(chosen) ?? navigator.languages.map(supported).find(Boolean) ?? 'en';
};

void i18n.use(initReactI18next).init({
  lng: detectLanguage(),
  resources: {},
  partialBundledLanguages: true,
  supportedLngs: languages.map((language) => language.code),
  load: 'languageOnly',
  fallbackLng: 'en',
  initAsync: false,
  interpolation: { escapeValue: false }, // React escapes what it renders
});

/** Resolves once the detected language's texts are there (at once for English). */
export const i18nReady: Promise<void> = (async () => {
  const code = languages.find((language) => language.code === i18n.language)?.code ?? 'en';
  try {
    await loadLanguage(code);
    await i18n.changeLanguage(code);
  } catch (error) {
    // Offline or an outdated page: the texts' keys rather than no page.
    console.warn('Could not load the language', error);
  }
})();

/** The language the app shows now (one of the shipped ones). */
export const currentLanguage = (): LanguageCode => {
  const resolved = i18n.resolvedLanguage;
  return languages.some((language) => language.code === resolved) ? (resolved as LanguageCode) : 'en';
};

/** Switches the language and remembers the choice in this browser. */
export const chooseLanguage = async (code: LanguageCode): Promise<void> => {
  try {
    localStorage.setItem(storageKeys.language, code);
  } catch (error) {
    console.warn('Could not store the language', error);
  }
  await loadLanguage(code);
  await i18n.changeLanguage(code);
};

/** A fraction as a whole percentage in the app's language ("42 %" in German, "٤٢٪" in Arabic). */
export const formatPercent = (fraction: number): string =>
  new Intl.NumberFormat(i18n.resolvedLanguage, { style: 'percent', maximumFractionDigits: 0 }).format(
    Math.floor(fraction * 100) / 100,
  );

/** A file size in the largest unit under 1024 of it, in the app's language. */
export const formatSize = (bytes: number): string => {
  const [value, unit] =
    bytes < 1024
      ? [bytes, 'byte']
      : bytes < 1024 * 1024
        ? [bytes / 1024, 'kilobyte']
        : [bytes / (1024 * 1024), 'megabyte'];
  return new Intl.NumberFormat(i18n.resolvedLanguage, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
};

/** The translate function outside components (error texts built in hooks and models). */
export const t = i18n.t.bind(i18n);

// Keys are checked at compile time against the English resource.
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en };
  }
}
