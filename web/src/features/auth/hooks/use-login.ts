import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAppDispatch } from '../../../app/hooks.ts';
import { isApiError } from '../../../lib/api-error.ts';
import { loggedIn } from '../../../lib/session.slice.ts';
import { storeTokens, storeUser } from '../../../lib/storage.ts';
import { useLoginMutation } from '../api/auth.api.ts';
import { loginErrorText } from '../auth-texts.ts';

/** Logs in, stores tokens and the user record (`data`), and opens /all-chats (spec section 4). */
export const useLogin = () => {
  const [login, { isLoading }] = useLoginMutation();
  const [error, setError] = useState('');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();

  const submit = async (username: string, password: string) => {
    setError('');
    try {
      const { user } = await login({ username: username.trim(), password }).unwrap();
      storeTokens(user);
      storeUser(user.loggedUser);
      dispatch(loggedIn(user.loggedUser));
      await navigate('/all-chats');
    } catch (failure) {
      setError(isApiError(failure) ? loginErrorText(failure) : 'An error occurred during login.');
    }
  };

  return { submit, isLoading, error };
};
