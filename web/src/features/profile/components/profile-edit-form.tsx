import type { PublicUser } from '@veil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FormField } from '../../../components/form-field.tsx';
import { PictureInput } from '../../../components/picture-input.tsx';

interface ProfileEditFormProps {
  user: PublicUser;
  saving: boolean;
  onSave: (username: string, picture: File | null) => void;
  onCancel: () => void;
}

/** Edit mode of /profile: username and an optional picture (a non-image is silently ignored). */
export const ProfileEditForm = ({ user, saving, onSave, onCancel }: ProfileEditFormProps) => {
  const [username, setUsername] = useState(user.username);
  const [picture, setPicture] = useState<File | null>(null);
  const { t } = useTranslation();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSave(username, picture);
  };

  return (
    <form className="form" onSubmit={onSubmit} aria-label={t('profile.editForm')}>
      <FormField
        label={t('auth.username')}
        name="username"
        autoComplete="username"
        value={username}
        onChange={(e) => setUsername(e.target.value)}
      />
      <PictureInput label={t('auth.picture')} file={picture} onChange={(file) => setPicture(file)} />
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? t('profile.saving') : t('profile.save')}
        </button>
        <button type="button" className="button" onClick={onCancel} disabled={saving}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
};
