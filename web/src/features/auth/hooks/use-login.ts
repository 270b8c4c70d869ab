import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { loggedIn } from '../../../lib/session.slice.ts';
import { storeTokens, storeUser } from '../../../lib/storage.ts';
import { useLoginMutation } from '../api/auth.api.ts';
import { t } from '../../../lib/i18n.ts';
import { loginErrorText } from '../auth-texts.ts';

/**
 * Signs in and opens /all-chats: stores the tokens and the user record (`data`), as docs/web.md, "Storage", lists them.
 * Failures throw (ApiErrors). Shared by the login form and by registration, which signs the new
 * account in at once.
 */
export const useSignIn = () => {
  const [login, { isLoading }] = useLoginMutation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const signIn = useCallback(
    async (username: string, password: string) => {
      const { user } = await login({ username: username.trim(), password }).unwrap();
      storeTokens(user);
      storeUser(user.loggedUser);
      dispatch(loggedIn(user.loggedUser));
      await navigate('/all-chats');
    },
    [login, dispatch, navigate],
  );
  return { signIn, isLoading };
};

/** The login form: signs in, or says why not in the seed contract's words. */
export const useLogin = () => {
  const { signIn, isLoading } = useSignIn();
  const [error, setError] = useState('');

  const submit = async (username: string, password: string) => {
    setError('');
    try {
      await signIn(username, password);
    } catch (failure) {
      setError(isApiError(failure) ? loginErrorText(failure) : t('auth.loginError'));
    }
  };

  return { submit, isLoading, error };
};
