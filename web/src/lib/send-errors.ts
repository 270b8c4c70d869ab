import { VeilCryptoError } from '@veil/crypto';
import { errorText, isApiError } from './api-error.ts';

/**
 * Spec section 8: "Failed to send message: {status text}" / "Failed to send group message: ...".
 * HTTP/2 responses carry no status text, so the server's message stands in for it; when both
 * exist the message follows in parentheses, since "Bad Request" alone helps nobody.
 */
export const sendFailureText = (isGroup: boolean, error: unknown): string => {
  if (error instanceof VeilCryptoError) return error.message; // e.g. "Failed to fetch recipient public key"
  const prefix = isGroup ? 'Failed to send group message' : 'Failed to send message';
  if (!isApiError(error)) return `${prefix}: ${errorText(error) || 'Unknown error'}`;
  const { statusText, message } = error;
  if (statusText && message && message !== statusText) return `${prefix}: ${statusText} (${message})`;
  return `${prefix}: ${statusText || message}`;
};
