import { t } from '../lib/i18n.ts';
import { PasswordField } from './password-field.tsx';

/** A backup passphrase: long, because whoever holds the server's copy of the backup can guess offline. */
export const minPassphraseLength = 12;

export interface PassphraseErrors {
  passphrase?: string;
  repeat?: string;
}

export const passphraseErrors = (passphrase: string, repeat: string): PassphraseErrors => ({
  ...(passphrase.length < minPassphraseLength
    ? { passphrase: t('passphrase.tooShort', { count: minPassphraseLength }) }
    : {}),
  ...(passphrase !== repeat ? { repeat: t('passphrase.mismatch') } : {}),
});

interface PassphraseFieldsProps {
  label: string;
  repeatLabel: string;
  passphrase: string;
  repeat: string;
  errors: PassphraseErrors;
  onPassphrase: (value: string) => void;
  onRepeat: (value: string) => void;
}

/** A new passphrase typed twice. */
export const PassphraseFields = ({
  label,
  repeatLabel,
  passphrase,
  repeat,
  errors,
  onPassphrase,
  onRepeat,
}: PassphraseFieldsProps) => (
  <>
    <PasswordField
      label={label}
      name="backup-passphrase"
      autoComplete="new-password"
      value={passphrase}
      error={errors.passphrase}
      onChange={(e) => onPassphrase(e.target.value)}
    />
    <PasswordField
      label={repeatLabel}
      name="backup-passphrase-repeat"
      autoComplete="new-password"
      value={repeat}
      error={errors.repeat}
      onChange={(e) => onRepeat(e.target.value)}
    />
  </>
);
