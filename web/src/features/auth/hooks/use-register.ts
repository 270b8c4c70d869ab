import { exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { keepNewAccountKey } from '../../../lib/account-keys.ts';
import { useRegisterMutation } from '../api/auth.api.ts';
import { registerErrorText } from '../auth-texts.ts';

export interface Registration {
  username: string;
  password: string;
  picture: File | null;
}

/**
 * Registers: a fresh RSA-OAEP key pair is made in the browser, only the public key (base64
 * SPKI) is uploaded, and once the account exists (its id names the key) the private key is
 * kept in IndexedDB as a non-extractable copy. Until then the pair is extractable: the one
 * moment an encrypted backup of the private key could be made.
 */
export const useRegister = () => {
  const [register] = useRegisterMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const navigate = useNavigate();

  const submit = async ({ username, password, picture }: Registration) => {
    setError('');
    setBusy(true);
    try {
      const keyPair = await generateUserKeyPair();
      const publicKey = await exportPublicKeySpkiBase64(keyPair.publicKey);
      const form = new FormData();
      form.append('username', username.trim());
      form.append('password', password);
      form.append('publicKey', publicKey);
      if (picture) form.append('profilePicture', picture);
      const { user } = await register(form).unwrap();
      await keepNewAccountKey(user._id, keyPair.privateKey, publicKey);
      await navigate('/login');
    } catch (failure) {
      if (!isApiError(failure)) console.error('Registration failed', failure);
      setError(isApiError(failure) ? registerErrorText(failure) : 'An error occurred during registration.');
    } finally {
      setBusy(false);
    }
  };

  return { submit, busy, error };
};
