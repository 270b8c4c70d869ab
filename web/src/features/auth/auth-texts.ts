import { limits, newPasswordSchema, usernameSchema } from '@veil/contracts';
import type { ApiError } from '../../lib/api-error.ts';
import { errorText } from '../../lib/api-error.ts';
import { t } from '../../lib/i18n.ts';

/** Login failures (docs/web.md, "Screens": the English texts verbatim). */
export const loginErrorText = (error: ApiError): string => {
  switch (error.kind) {
    case 'http':
      // A suspended account is told so (only after the right password); anything else reads as bad credentials.
      return error.code === 'ACCOUNT_SUSPENDED' ? errorText(error) : t('auth.loginFailedCredentials');
    case 'unsuccessful':
      return errorText(error) || t('auth.loginFailed');
    default:
      return errorText(error) || t('auth.loginError');
  }
};

/** Registration failures (docs/web.md, "Screens": the English texts verbatim). */
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

/**
 * A new account's details, checked with the server's own rules (the schemas of its registration
 * body, from @veil/contracts) before the recovery-key step, so a name or password the server would
 * refuse is named on the form, in the reader's language, before any key is made.
 */
export const validateNewAccount = (username: string, password: string): CredentialErrors => {
  const found = validateCredentials(username, password);
  if (!found.username && !usernameSchema.safeParse(username).success)
    found.username = t('auth.usernameRule', { min: limits.usernameMin, max: limits.usernameMax });
  if (!found.password && password.length < limits.passwordMin)
    found.password = t('auth.passwordTooShort', { min: limits.passwordMin });
  else if (!found.password && !newPasswordSchema.safeParse(password).success)
    found.password = t('auth.passwordTooLong', { max: limits.passwordMax });
  return found;
};
