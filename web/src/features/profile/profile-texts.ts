/** Texts of spec section 8, verbatim. */
export const profileTexts = {
  loadFailed: 'Failed to fetch profile',
  updateFailed: 'Failed to update profile',
  passwordFailed: 'Failed to update password',
  updated: 'Profile updated successfully!',
  passwordUpdated: 'Password updated successfully!',
} as const;
