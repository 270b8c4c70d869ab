import type { ErrorCode } from '@veil/contracts';
import { i18n, t } from './i18n.ts';

/**
 * Every failed call, as the UI sees it. `kind` says what failed, so screens can pick the seed contract's
 * texts (section 8): `http` a non-OK response, `unsuccessful` an OK response with
 * `success: false`, `network` no response at all, `parse` a response that is not the API's JSON.
 */
export interface ApiError {
  kind: 'http' | 'unsuccessful' | 'network' | 'parse';
  status: number | null;
  statusText: string;
  /** The server's `message`, else a description of the failure. */
  message: string;
  /** The server's stable error code (`packages/contracts/src/errors.ts`), when it sent one. */
  code?: string;
}

export const isApiError = (value: unknown): value is ApiError =>
  typeof value === 'object' && value !== null && 'kind' in value && 'message' in value;

/**
 * The best human text for an error of unknown shape (RTK Query errors, thrown errors, strings),
 * in the user's language: the server's stable code picks a translated text, since its `message`
 * is English and written for developers; a failure without a code keeps its own words.
 */
export const errorText = (error: unknown): string => {
  if (isApiError(error)) {
    if (error.code && i18n.exists(`errors.${error.code}`)) return t(`errors.${error.code as ErrorCode}`);
    if (error.kind === 'network') return t('errors.network');
    if (error.kind === 'parse') return t('errors.parse');
    return error.message;
  }
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return '';
};
