import { FormField } from './form-field.tsx';

/** A backup passphrase: long, because whoever holds the server's copy of the backup can guess offline. */
export const minPassphraseLength = 12;

export interface PassphraseErrors {
  passphrase?: string;
  repeat?: string;
}

export const passphraseErrors = (passphrase: string, repeat: string): PassphraseErrors => ({
  ...(passphrase.length < minPassphraseLength
    ? { passphrase: `Use at least ${minPassphraseLength} characters` }
    : {}),
  ...(passphrase !== repeat ? { repeat: 'The passphrases do not match' } : {}),
});

interface PassphraseFieldsProps {
  label: string;
  passphrase: string;
  repeat: string;
  errors: PassphraseErrors;
  onPassphrase: (value: string) => void;
  onRepeat: (value: string) => void;
}

/** A new passphrase typed twice. */
export const PassphraseFields = ({
  label,
  passphrase,
  repeat,
  errors,
  onPassphrase,
  onRepeat,
}: PassphraseFieldsProps) => (
  <>
    <FormField
      label={label}
      name="backup-passphrase"
      type="password"
      autoComplete="new-password"
      value={passphrase}
      error={errors.passphrase}
      onChange={(e) => onPassphrase(e.target.value)}
    />
    <FormField
      label={`Repeat ${label.toLowerCase()}`}
      name="backup-passphrase-repeat"
      type="password"
      autoComplete="new-password"
      value={repeat}
      error={errors.repeat}
      onChange={(e) => onRepeat(e.target.value)}
    />
  </>
);
