import {
  recordMadeEntries,
  generateKeyBundle,
  keepKeyBundle,
  registrationEntry,
  type KeyBundle,
} from '../../keys/index.ts';
import { createKeyBackup, generateRecoveryKey } from '@veil/crypto';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { RecoveryKeyChoice } from '../../../components/recovery-key-setup.tsx';
import { isApiError } from '../../../lib/api-error.ts';
import { useRegisterMutation } from '../api/auth.api.ts';
import { t } from '../../../lib/i18n.ts';
import { registerErrorText } from '../auth-texts.ts';
import { useSignIn } from './use-login.ts';

export interface Registration {
  username: string;
  password: string;
  picture: File | null;
}

/** The key bundle and recovery key of one sign-up, kept across a retry (e.g. after "username taken"). */
interface PreparedKeys {
  bundle: KeyBundle & { signing: NonNullable<KeyBundle['signing']> };
  recoveryKey: string;
}

/** The recovery key was saved (with or without a passphrase), or the user chose to go without. */
type BackupChoice = RecoveryKeyChoice | 'skipped';

/**
 * Registers in two steps: the details, then the recovery key (shown once, two groups typed back,
 * an optional passphrase), and only then the server. A fresh key bundle (RSA-OAEP encryption key,
 * ECDSA signing key) is made in the browser; only the public keys and the encrypted backup of the
 * private keys (made here, from the extractable originals, the one moment they can be exported
 * directly) are uploaded. Once the account exists (its id names the keys) the private keys are
 * kept in IndexedDB, non-extractable, and the account is signed in.
 */
export const useRegister = () => {
  const [register] = useRegisterMutation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [prepared, setPrepared] = useState<PreparedKeys | null>(null);
  const [askingRecovery, setAskingRecovery] = useState(false);
  const choice = useRef<BackupChoice | null>(null);
  const navigate = useNavigate();
  const { signIn } = useSignIn();

  const send = async (details: Registration, keys: PreparedKeys, backup: BackupChoice) => {
    setError('');
    setBusy(true);
    try {
      const form = new FormData();
      form.append('username', details.username.trim());
      form.append('password', details.password);
      form.append('publicKey', keys.bundle.encryption.publicKey);
      form.append('signingKey', keys.bundle.signing.publicKey);
      // Signed now, not when the keys were made: the server takes an entry dated within minutes.
      const entry = await registrationEntry(keys.bundle);
      form.append('keyLogEntry', JSON.stringify(entry));
      if (backup !== 'skipped') {
        const keyBackup = await createKeyBackup({
          ...keys.bundle.encryption,
          signingKey: keys.bundle.signing,
          recoveryKey: keys.recoveryKey,
          passphrase: backup.passphrase,
        });
        form.append('keyBackup', JSON.stringify(keyBackup));
      }
      if (details.picture) form.append('profilePicture', details.picture);
      const { user } = await register(form).unwrap();
      await keepKeyBundle(user._id, keys.bundle);
      // The account's first entry is this browser's: its own-log check must know it.
      await recordMadeEntries(user._id, [entry.hash]);
      // The new account is signed in at once; should that fail, it exists and the login form remains.
      await signIn(details.username, details.password).catch(() => navigate('/login'));
    } catch (failure) {
      if (!isApiError(failure)) console.error('Registration failed', failure);
      setError(isApiError(failure) ? registerErrorText(failure) : t('auth.registerError'));
      setAskingRecovery(false); // back to the details, where a taken name can be changed
    } finally {
      setBusy(false);
    }
  };

  /** The details are valid: show the recovery key, or register at once if it was already saved. */
  const submitDetails = async (details: Registration) => {
    setError('');
    if (prepared && choice.current) return send(details, prepared, choice.current);
    if (!prepared) {
      setBusy(true);
      try {
        setPrepared({ bundle: await generateKeyBundle(), recoveryKey: generateRecoveryKey() });
      } finally {
        setBusy(false);
      }
    }
    setAskingRecovery(true);
  };

  const confirmRecovery = (details: Registration, backup: BackupChoice) => {
    choice.current = backup;
    if (prepared) void send(details, prepared, backup);
  };

  return {
    submitDetails,
    confirmRecovery,
    backToDetails: () => setAskingRecovery(false),
    recoveryKey: askingRecovery ? (prepared?.recoveryKey ?? null) : null,
    busy,
    error,
  };
};
