import type { PublicUser } from '@veil/contracts';
import { useTranslation } from 'react-i18next';
import { Avatar } from '../../../components/avatar.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useGetGroupCandidatesQuery } from '../../messages/index.ts';

interface GroupMembersStepProps {
  myId: string;
  selected: ReadonlySet<string>;
  onToggle: (user: PublicUser) => void;
  creating: boolean;
  onCreate: () => void;
  onBack: () => void;
  onClose: () => void;
}

/** Step 2: choose members from the directory (the current user is not listed). */
export const GroupMembersStep = ({
  myId,
  selected,
  onToggle,
  creating,
  onCreate,
  onBack,
  onClose,
}: GroupMembersStepProps) => {
  const { data: users, isLoading, isFetching, error, refetch } = useGetGroupCandidatesQuery();
  const { t } = useTranslation();
  const candidates = (users ?? []).filter((user) => user._id !== myId);
  const failure =
    error && 'kind' in error
      ? error.kind === 'network'
        ? t('groups.usersNetwork')
        : t('groups.usersFailed')
      : null;

  return (
    <div className="group-members">
      <h3 className="group-members__title">{t('groups.selectMembers')}</h3>
      {isLoading ? (
        <p className="empty-state">{t('groups.loadingUsers')}</p>
      ) : failure ? (
        <div className="status status--error" role="alert">
          <p>{failure}</p>
          <button type="button" className="button" onClick={() => void refetch()} disabled={isFetching}>
            {t('groups.retry')}
          </button>
        </div>
      ) : candidates.length === 0 ? (
        <p className="empty-state">{t('groups.noUsers')}</p>
      ) : (
        <ul className="group-members__list">
          {candidates.map((user) => (
            <li key={user._id}>
              <label className="member-option">
                <input type="checkbox" checked={selected.has(user._id)} onChange={() => onToggle(user)} />
                <Avatar name={user.username} picture={user.profilePicture} size="sm" />
                <span>{user.username}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
      {isFetching && !isLoading && <Spinner label={t('groups.refreshingUsers')} />}
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={onCreate} disabled={creating}>
          {creating ? t('groups.creating') : t('groups.create')}
        </button>
        <button type="button" className="button" onClick={onBack} disabled={creating}>
          {t('common.back')}
        </button>
        <button type="button" className="button" onClick={onClose} disabled={creating}>
          {t('common.close')}
        </button>
      </div>
    </div>
  );
};
