import type { VeilCryptoError } from '@veil/crypto';
import type { en } from '../locales/en.ts';
import { i18n, t } from './i18n.ts';

/** A crypto failure in the user's language, by its code; codes without a text of their own keep their words. */
export const cryptoErrorText = (error: VeilCryptoError): string => {
  const key = `crypto.${error.code}`;
  // Only some codes have a text: exists() has checked this one, so the cast only tells the compiler.
  return i18n.exists(key) ? t(key as `crypto.${keyof typeof en.crypto}`) : error.message;
};
