import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../components/spinner.tsx';
import { useGetProfileQuery } from '../api/profile.api.ts';
import { useProfileUpdate } from '../hooks/use-profile-update.ts';
import { BlockedUsers } from './blocked-users.tsx';
import { LanguageSwitch } from './language-switch.tsx';
import { PasswordForm } from './password-form.tsx';
import { PrivacyForm } from './privacy-form.tsx';
import { ProfileDetails } from './profile-details.tsx';
import { ProfileEditForm } from './profile-edit-form.tsx';
import { StatusMessage, type Status } from './status-message.tsx';

/** /profile: loading, then the profile (view or edit) and the password form, or only the error. */
export const ProfilePage = () => {
  const { data: user, isLoading, isError } = useGetProfileQuery();
  const { save, saving } = useProfileUpdate();
  const [editing, setEditing] = useState(false);
  const [status, setStatus] = useState<Status>(null);
  const { t } = useTranslation();

  if (isLoading) {
    return (
      <section className="profile-page">
        <Spinner label={t('profile.loading')} />
      </section>
    );
  }
  if (isError || !user) {
    return (
      <section className="profile-page">
        <p className="form__error" role="alert">
          {t('profile.loadFailed')}
        </p>
      </section>
    );
  }

  const onSave = async (username: string, picture: File | null) => {
    setStatus(null);
    const outcome = await save(username, picture);
    if (outcome.ok) {
      setEditing(false);
      setStatus({ kind: 'success', text: t('profile.updated') });
    } else setStatus({ kind: 'error', text: t('profile.updateFailed'), detail: outcome.detail });
  };

  return (
    <section className="profile-page" aria-labelledby="profile-title">
      <div className="profile-card">
        <h1 id="profile-title">{t('profile.title')}</h1>
        {editing ? (
          <ProfileEditForm
            user={user}
            saving={saving}
            onSave={(username, picture) => void onSave(username, picture)}
            onCancel={() => {
              setEditing(false);
              setStatus(null);
            }}
          />
        ) : (
          <ProfileDetails
            user={user}
            onEdit={() => {
              setEditing(true);
              setStatus(null);
            }}
          />
        )}
        <StatusMessage status={status} />
      </div>
      <PasswordForm username={user.username} />
      <PrivacyForm />
      <BlockedUsers />
      <LanguageSwitch />
    </section>
  );
};
