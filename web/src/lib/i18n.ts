import i18next from 'i18next';
import LanguageDetector from 'i18next-browser-languagedetector';
import { initReactI18next } from 'react-i18next';
import { ar } from '../locales/ar.ts';
import { de } from '../locales/de.ts';
import { en } from '../locales/en.ts';
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

// Resources are bundled (three small files), so init finishes synchronously, before the first render.
void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { en: { translation: en }, de: { translation: de }, ar: { translation: ar } },
    supportedLngs: languages.map((language) => language.code),
    nonExplicitSupportedLngs: true,
    load: 'languageOnly',
    fallbackLng: 'en',
    initAsync: false,
    interpolation: { escapeValue: false }, // React escapes what it renders
    detection: {
      // A choice made on the profile page, else the browser's languages in their order.
      order: ['localStorage', 'navigator'],
      lookupLocalStorage: storageKeys.language,
      // Only an explicit choice is stored: until then the browser's language keeps deciding.
      caches: [],
    },
  });

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
