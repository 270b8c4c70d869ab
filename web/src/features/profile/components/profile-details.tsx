import type { PublicUser } from '@veil/contracts';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';

/** View mode of /profile. */
export const ProfileDetails = ({ user, onEdit }: { user: PublicUser; onEdit: () => void }) => {
  const { t } = useTranslation();
  return (
    <div className="profile-details">
      <Avatar name={user.username} picture={user.profilePicture} size="lg" />
      <dl className="profile-details__fields">
        <dt>{t('auth.username')}</dt>
        <dd data-testid="profile-username">{user.username}</dd>
      </dl>
      <button type="button" className="button button--primary" onClick={onEdit}>
        {t('profile.edit')}
      </button>
    </div>
  );
};
