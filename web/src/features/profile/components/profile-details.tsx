import type { PublicUser } from '@veil/contracts';
import { Avatar } from '../../../components/avatar.tsx';

/** View mode of /profile. */
export const ProfileDetails = ({ user, onEdit }: { user: PublicUser; onEdit: () => void }) => (
  <div className="profile-details">
    <Avatar name={user.username} picture={user.profilePicture} size="lg" />
    <dl className="profile-details__fields">
      <dt>Username</dt>
      <dd data-testid="profile-username">{user.username}</dd>
    </dl>
    <button type="button" className="button button--primary" onClick={onEdit}>
      Edit Profile
    </button>
  </div>
);
