import { exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { savePrivateKey } from '../../../lib/key-store.ts';
import { useRegisterMutation } from '../api/auth.api.ts';
import { registerErrorText } from '../auth-texts.ts';

export interface Registration {
  username: string;
  password: string;
  picture: File | null;
}

/**
 * Registers: a fresh RSA-OAEP key pair is made in the browser, only the public key (base64
 * SPKI) is uploaded, and the private key is kept in IndexedDB once the account exists (saving
 * it earlier would overwrite this browser's key for a registration that then fails).
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
      const form = new FormData();
      form.append('username', username.trim());
      form.append('password', password);
      form.append('publicKey', await exportPublicKeySpkiBase64(keyPair.publicKey));
      if (picture) form.append('profilePicture', picture);
      await register(form).unwrap();
      await savePrivateKey(keyPair.privateKey);
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
