import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordField } from '../../../components/password-field.tsx';
import { usePasswordUpdate } from '../hooks/use-password-update.ts';
import { StatusMessage, type Status } from './status-message.tsx';

/**
 * The separate password form of /profile: the current password, then the new one. The seed contract sets
 * no client-side rule for the new one; the server's apply.
 */
export const PasswordForm = ({ username }: { username: string }) => {
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [missingCurrent, setMissingCurrent] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const { save, saving } = usePasswordUpdate(username);
  const { t } = useTranslation();

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    setMissingCurrent(!currentPassword);
    if (!currentPassword) return;
    const outcome = await save(currentPassword, password);
    if (outcome.ok) {
      setCurrentPassword('');
      setPassword('');
      setStatus({ kind: 'success', text: t('profile.passwordUpdated') });
    } else setStatus({ kind: 'error', text: t('profile.passwordFailed'), detail: outcome.detail });
  };

  return (
    <form className="form profile-card" onSubmit={(e) => void onSubmit(e)} aria-labelledby="password-title">
      <h2 id="password-title">{t('profile.passwordTitle')}</h2>
      <PasswordField
        label={t('profile.currentPassword')}
        name="current-password"
        autoComplete="current-password"
        value={currentPassword}
        error={missingCurrent ? t('profile.currentPasswordRequired') : undefined}
        onChange={(e) => setCurrentPassword(e.target.value)}
      />
      <PasswordField
        label={t('profile.newPassword')}
        name="new-password"
        autoComplete="new-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <StatusMessage status={status} />
      <button type="submit" className="button button--primary" disabled={saving}>
        {saving ? t('profile.updating') : t('profile.updatePassword')}
      </button>
    </form>
  );
};
