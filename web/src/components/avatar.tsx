import { useTranslation } from 'react-i18next';

interface AvatarProps {
  name: string;
  picture?: string | null;
  size?: 'sm' | 'md' | 'lg';
  /** Shows the green presence dot. */
  online?: boolean;
  /** Beside the name already: the picture adds nothing to what is read out. */
  decorative?: boolean;
}

/** A user's (or group's) picture, or the first letter of the name when there is none. */
export const Avatar = ({ name, picture, size = 'md', online = false, decorative = false }: AvatarProps) => {
  const { t } = useTranslation();
  return (
    <span className={`avatar avatar--${size}`} data-testid="avatar">
      {picture ? (
        <img className="avatar__image" src={picture} alt={decorative ? '' : t('avatar.picture', { name })} />
      ) : (
        <span className="avatar__letter" aria-hidden="true">
          {name.charAt(0).toUpperCase() || '?'}
        </span>
      )}
      {online && (
        <span
          className="avatar__online"
          role="img"
          aria-label={t('avatar.online')}
          data-testid="online-dot"
        />
      )}
    </span>
  );
};
