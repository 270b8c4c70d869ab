import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormField } from '../../../components/form-field.tsx';
import { PasswordField } from '../../../components/password-field.tsx';
import { validateCredentials, type CredentialErrors } from '../auth-texts.ts';
import { useLogin } from '../hooks/use-login.ts';

/** /login: the Sign in form (docs/web.md, "Routes and guards"). */
export const LoginPage = () => {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<CredentialErrors>({});
  const { submit, isLoading, error } = useLogin();
  const { t } = useTranslation();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateCredentials(username, password);
    setErrors(found);
    if (Object.keys(found).length === 0) void submit(username, password);
  };

  return (
    <section className="auth-card" aria-labelledby="login-title">
      <h1 id="login-title">{t('auth.signInTitle')}</h1>
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
          autoComplete="current-password"
          value={password}
          error={errors.password}
          onChange={(e) => setPassword(e.target.value)}
        />
        {error && (
          <p className="form__error" role="alert">
            {error}
          </p>
        )}
        <button className="button button--primary" type="submit" disabled={isLoading}>
          {isLoading ? t('auth.signingIn') : t('auth.signIn')}
        </button>
      </form>
      <p className="auth-card__switch">
        {t('auth.noAccount')} <Link to="/register">{t('auth.registerLink')}</Link>
      </p>
    </section>
  );
};
