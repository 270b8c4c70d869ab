import type { ApiError } from '../../lib/api-error.ts';
import { errorText } from '../../lib/api-error.ts';
import { t } from '../../lib/i18n.ts';

/** Login failures (spec section 8; the English texts verbatim). */
export const loginErrorText = (error: ApiError): string => {
  switch (error.kind) {
    case 'http':
      return t('auth.loginFailedCredentials');
    case 'unsuccessful':
      return errorText(error) || t('auth.loginFailed');
    default:
      return errorText(error) || t('auth.loginError');
  }
};

/** Registration failures (spec section 8; the English texts verbatim). */
export const registerErrorText = (error: ApiError): string => {
  switch (error.kind) {
    case 'http':
      return errorText(error) || t('auth.registerFailedRetry');
    case 'unsuccessful':
      return errorText(error) || t('auth.registerFailed');
    default:
      return t('auth.registerError');
  }
};

export interface CredentialErrors {
  username?: string;
  password?: string;
}

export const validateCredentials = (username: string, password: string): CredentialErrors => ({
  ...(username.trim() ? {} : { username: t('auth.usernameRequired') }),
  ...(password ? {} : { password: t('auth.passwordRequired') }),
});
