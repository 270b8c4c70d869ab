import { useState } from 'react';
import { errorText } from '../../../lib/api-error.ts';
import { storeTokens } from '../../../lib/storage.ts';
import { replacingTokens } from '../../../lib/token-refresh.ts';
import { useReauthenticateMutation, useUpdatePasswordMutation } from '../api/profile.api.ts';

export type PasswordOutcome = { ok: true } | { ok: false; detail: string };

/**
 * Changes the password; the current one is asked again (the server checks it like a login, so
 * an unattended, unlocked browser is not enough to take the account). The server then revokes every refresh token, which would end this
 * session when the access token expires; logging in again with the new password right away
 * keeps the user signed in.
 */
export const usePasswordUpdate = (username: string) => {
  const [updatePassword] = useUpdatePasswordMutation();
  const [reauthenticate] = useReauthenticateMutation();
  const [saving, setSaving] = useState(false);

  const save = async (currentPassword: string, password: string): Promise<PasswordOutcome> => {
    setSaving(true);
    const change = async () => {
      await updatePassword({ currentPassword, password }).unwrap();
      try {
        storeTokens((await reauthenticate({ username, password }).unwrap()).user);
      } catch (failure) {
        console.warn('Could not renew the session after the password change', failure);
      }
    };
    try {
      // Requests refused between the change and the new login wait for the new tokens.
      await replacingTokens(change());
      return { ok: true };
    } catch (failure) {
      return { ok: false, detail: errorText(failure) };
    } finally {
      setSaving(false);
    }
  };

  return { save, saving };
};
