import type { ApiError } from '../../lib/api-error.ts';

/** Texts of spec sections 5 and 8, verbatim. */
export const authTexts = {
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  invalidImage: 'Please upload a valid image file.',
} as const;

/** Login failures (spec section 8). */
export const loginErrorText = (error: ApiError): string => {
  switch (error.kind) {
    case 'http':
      return 'Login failed. Please check your credentials.';
    case 'unsuccessful':
      return error.message || 'Login failed.';
    default:
      return error.message || 'An error occurred during login.';
  }
};

/** Registration failures (spec section 8). */
export const registerErrorText = (error: ApiError): string => {
  switch (error.kind) {
    case 'http':
      return error.message || 'Registration failed. Please try again.';
    case 'unsuccessful':
      return error.message || 'Registration failed.';
    default:
      return 'An error occurred during registration.';
  }
};

export interface CredentialErrors {
  username?: string;
  password?: string;
}

export const validateCredentials = (username: string, password: string): CredentialErrors => ({
  ...(username.trim() ? {} : { username: authTexts.usernameRequired }),
  ...(password ? {} : { password: authTexts.passwordRequired }),
});
