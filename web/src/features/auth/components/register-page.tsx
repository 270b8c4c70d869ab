import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { validateNewAccount, type CredentialErrors } from '../auth-texts.ts';
import { useRegister } from '../hooks/use-register.ts';
import { PictureInput } from '../../../components/picture-input.tsx';
import { RecoveryKeySetup } from '../../../components/recovery-key-setup.tsx';

/**
 * /register: Create your account (docs/web.md, "Screens"), then Veil's second step: the recovery key
 * that backs up the new private key.
 */
export const RegisterPage = () => {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [picture, setPicture] = useState<File | null>(null);
  const [errors, setErrors] = useState<CredentialErrors & { picture?: string }>({});
  const { submitDetails, confirmRecovery, backToDetails, recoveryKey, busy, error } = useRegister();
  const details = { username, password, picture };
  const { t } = useTranslation();

  const onPicture = (file: File | null, rejected: boolean) => {
    setPicture(file);
    setErrors(({ picture: _old, ...rest }) =>
      rejected ? { ...rest, picture: t('auth.invalidImage') } : rest,
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateNewAccount(username, password);
    setErrors((current) => ({ ...found, ...(current.picture ? { picture: current.picture } : {}) }));
    // A rejected picture keeps its message until a valid one (or none) is chosen.
    if (Object.keys(found).length === 0 && !errors.picture) void submitDetails(details);
  };

  if (recoveryKey) {
    return (
      <section className="auth-card auth-card--wide" aria-labelledby="recovery-title">
        <RecoveryKeySetup
          recoveryKey={recoveryKey}
          username={username.trim()}
          titleId="recovery-title"
          confirmLabel={t('auth.signUp')}
          busy={busy}
          busyLabel={t('auth.signingUp')}
          onConfirm={(choice) => confirmRecovery(details, choice)}
          onSkip={() => confirmRecovery(details, 'skipped')}
          onBack={backToDetails}
          accountPassword={password}
        />
      </section>
    );
  }

  return (
    <section className="auth-card" aria-labelledby="register-title">
      <h1 id="register-title">{t('auth.registerTitle')}</h1>
      <form className="form" onSubmit={onSubmit} noValidate>
        <FormField
          label={t('auth.username')}
          name="username"
          autoComplete="username"
          value={username}
          error={errors.username}
          onChange={(e) => setUsername(e.target.value)}
        />
        <PasswordField
          label={t('auth.password')}
          name="password"
          autoComplete="new-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <PictureInput label={t('auth.picture')} file={picture} onChange={onPicture} error={errors.picture} />
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <button className="button button--primary" type="submit" disabled={busy}>
          {busy ? t('auth.signingUp') : t('auth.signUp')}
        </button>
      </form>
      <p className="auth-card__switch">
        {t('auth.haveAccount')} <Link to="/login">{t('auth.signInLink')}</Link>
      </p>
    </section>
  );
};
