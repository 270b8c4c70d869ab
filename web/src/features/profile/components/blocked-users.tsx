import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
import { BlockButton } from '../../../components/block-button.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useGetBlocksQuery } from '../../../lib/blocks.api.ts';

/** The users this account blocked, each with Unblock (docs/web.md, "Blocking"). */
export const BlockedUsers = () => {
  const { data: blocked, isLoading, isError } = useGetBlocksQuery();
  const { t } = useTranslation();
  return (
    <section className="form profile-card" aria-labelledby="blocked-title" data-testid="blocked-users">
      <h2 id="blocked-title">{t('blocking.title')}</h2>
      {isLoading ? (
        <Spinner label={t('blocking.loading')} />
      ) : isError || !blocked ? (
        <p className="form__error" role="alert">
          {t('blocking.loadFailed')}
        </p>
      ) : blocked.length === 0 ? (
        <p>{t('blocking.none')}</p>
      ) : (
        <ul className="blocked-users">
          {blocked.map((user) => (
            <li key={user._id} className="blocked-users__item">
              <Avatar name={user.username} picture={user.profilePicture} decorative />
              <span className="blocked-users__name">{user.username}</span>
              <BlockButton user={user} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};
