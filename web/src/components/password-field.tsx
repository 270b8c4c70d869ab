import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField, type FormFieldProps } from './form-field.tsx';

interface PasswordFieldProps extends Omit<FormFieldProps, 'type'> {
  /** Offers "Show what I type" (a recovery key is long and easy to mistype). */
  revealable?: boolean;
}

/**
 * Every secret the app asks for (password, passphrase, recovery key): a labelled field with
 * its error wired up, hidden as it is typed unless the user chooses to see it.
 */
export const PasswordField = ({ revealable = false, ...field }: PasswordFieldProps) => {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <>
      <FormField {...field} type={shown ? 'text' : 'password'} />
      {revealable && (
        <label className="checkbox-field checkbox-field--small">
          <input type="checkbox" checked={shown} onChange={(e) => setShown(e.target.checked)} />
          <span>{t('passphrase.showTyped')}</span>
        </label>
      )}
    </>
  );
};
