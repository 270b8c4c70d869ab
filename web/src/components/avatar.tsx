interface AvatarProps {
  name: string;
  picture?: string | null;
  size?: 'sm' | 'md' | 'lg';
  /** Shows the green presence dot. */
  online?: boolean;
}

/** A user's (or group's) picture, or the first letter of the name when there is none. */
export const Avatar = ({ name, picture, size = 'md', online = false }: AvatarProps) => (
  <span className={`avatar avatar--${size}`} data-testid="avatar">
    {picture ? (
      <img className="avatar__image" src={picture} alt={`${name}'s avatar`} />
    ) : (
      <span className="avatar__letter" aria-hidden="true">
        {name.charAt(0).toUpperCase() || '?'}
      </span>
    )}
    {online && <span className="avatar__online" role="img" aria-label="online" data-testid="online-dot" />}
  </span>
);
