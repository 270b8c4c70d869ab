import { PasswordField } from '../../../components/password-field.tsx';

interface SecretFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}

/** A recovery key or passphrase: hidden like a password unless the user asks to see it. */
export const SecretField = ({ label, value, onChange, error, autoFocus }: SecretFieldProps) => (
  <PasswordField
    revealable
    label={label}
    name="backup-secret"
    autoComplete="off"
    spellCheck={false}
    autoFocus={autoFocus}
    value={value}
    error={error}
    onChange={(e) => onChange(e.target.value)}
  />
);
