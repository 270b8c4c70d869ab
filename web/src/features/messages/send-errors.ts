import { VeilCryptoError } from '@veil/crypto';
import { errorText, isApiError } from '../../lib/api-error.ts';
import { cryptoErrorText } from '../../lib/crypto-errors.ts';
import { t } from '../../lib/i18n.ts';
import { KeysUncheckedError, keysUncheckedText } from '../keys/index.ts';

/** Who sends, and the chat's members' names: a blocked send names whose keys failed. */
export interface SendContext {
  accountId: string;
  nameOf: (userId: string) => string | undefined;
}

/**
 * The seed contract's send errors (docs/web.md): "Failed to send message: {status text}" / "Failed to send group message: ...".
 * HTTP/2 responses carry no status text, so the server's message stands in for it; when both
 * exist the message follows in parentheses, since "Bad Request" alone helps nobody.
 */
export const sendFailureText = (isGroup: boolean, error: unknown, context?: SendContext): string => {
  if (error instanceof VeilCryptoError) return cryptoErrorText(error);
  if (error instanceof KeysUncheckedError)
    return keysUncheckedText(error, context?.accountId ?? '', context?.nameOf ?? (() => undefined));
  const say = (reason: string) =>
    isGroup ? t('send.groupFailed', { reason }) : t('send.failed', { reason });
  if (!isApiError(error)) return say(errorText(error) || t('send.unknown'));
  const { statusText } = error;
  const message = errorText(error);
  if (statusText && message && message !== statusText)
    return say(t('send.withDetail', { status: statusText, detail: message }));
  return say(statusText || message);
};
