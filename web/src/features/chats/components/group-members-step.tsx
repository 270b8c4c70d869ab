import type { PublicUser } from '@veil/contracts';
import { Avatar } from '../../../components/avatar.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useGetGroupCandidatesQuery } from '../api/chats.api.ts';

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
  const candidates = (users ?? []).filter((user) => user._id !== myId);
  const failure =
    error && 'kind' in error
      ? error.kind === 'network'
        ? 'An error occurred while fetching users.'
        : 'Failed to fetch users. Please try again.'
      : null;

  return (
    <div className="group-members">
      <h3 className="group-members__title">Select Members</h3>
      {isLoading ? (
        <p className="empty-state">Loading users...</p>
      ) : failure ? (
        <div className="status status--error" role="alert">
          <p>{failure}</p>
          <button type="button" className="button" onClick={() => void refetch()} disabled={isFetching}>
            Retry
          </button>
        </div>
      ) : candidates.length === 0 ? (
        <p className="empty-state">No Users Available</p>
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
      {isFetching && !isLoading && <Spinner label="Refreshing users" />}
      <div className="form__actions">
        <button type="button" className="button button--primary" onClick={onCreate} disabled={creating}>
          {creating ? 'Creating...' : 'Create Group'}
        </button>
        <button type="button" className="button" onClick={onBack} disabled={creating}>
          Back
        </button>
        <button type="button" className="button" onClick={onClose} disabled={creating}>
          Close
        </button>
      </div>
    </div>
  );
};
