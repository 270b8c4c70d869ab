import { useState } from 'react';
import { FormField } from '../../../components/form-field.tsx';

interface SecretFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  autoFocus?: boolean;
}

/** A recovery key or passphrase: hidden like a password unless the user asks to see it. */
export const SecretField = ({ label, value, onChange, error, autoFocus }: SecretFieldProps) => {
  const [shown, setShown] = useState(false);
  return (
    <>
      <FormField
        label={label}
        name="backup-secret"
        type={shown ? 'text' : 'password'}
        autoComplete="off"
        spellCheck={false}
        autoFocus={autoFocus}
        value={value}
        error={error}
        onChange={(e) => onChange(e.target.value)}
      />
      <label className="checkbox-field checkbox-field--small">
        <input type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} />
        <span>Show what I type</span>
      </label>
    </>
  );
};
