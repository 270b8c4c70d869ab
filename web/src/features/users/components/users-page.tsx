import type { PublicUser } from '@veil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useAppSelector } from '../../../app/hooks.ts';
import { BlockButton } from '../../../components/block-button.tsx';
import { SearchIcon } from '../../../components/icons.tsx';
import { selectCurrentUser } from '../../../lib/session.slice.ts';
import { useSearchUsersQuery } from '../api/users.api.ts';
import { useOpenChat } from '../hooks/use-open-chat.ts';
import { UserCard } from './user-card.tsx';

/** /users: the All Users grid; search runs on every change and on Enter (docs/web.md, "Screens": Users). */
export const UsersPage = () => {
  const me = useAppSelector(selectCurrentUser);
  const [search, setSearch] = useState('');
  const { data: users, isLoading, isError, refetch } = useSearchUsersQuery(search);
  const { openChat, pendingId, error } = useOpenChat();
  const navigate = useNavigate();
  const { t } = useTranslation();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void refetch();
  };

  const select = (user: PublicUser) => {
    if (!me) void navigate('/login');
    else if (user._id === me._id) void navigate('/profile');
    else void openChat(user);
  };

  const actionFor = (user: PublicUser) =>
    !me ? t('users.loginToChat') : user._id === me._id ? t('users.yourProfile') : t('users.sayHi');

  return (
    <section className="users-page" aria-labelledby="users-title">
      <header className="page-header">
        <h1 id="users-title">{t('users.title')}</h1>
        <form className="search" role="search" onSubmit={onSubmit}>
          <SearchIcon />
          <input
            className="search__input"
            type="search"
            aria-label={t('users.search')}
            placeholder={t('users.search')}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </form>
      </header>
      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      {isLoading ? (
        <p className="empty-state">{t('users.loading')}</p>
      ) : isError || !users || users.length === 0 ? (
        <p className="empty-state">{t('users.none')}</p>
      ) : (
        <ul className="user-grid">
          {users.map((user) => (
            <UserCard
              key={user._id}
              user={user}
              action={actionFor(user)}
              busy={pendingId === user._id}
              onSelect={select}
              extra={me && user._id !== me._id && <BlockButton user={user} className="user-card__block" />}
            />
          ))}
        </ul>
      )}
    </section>
  );
};
