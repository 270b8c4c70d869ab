import { useTranslation } from 'react-i18next';
import type { ChatView, PublicUser } from '@veil/contracts';
import { useId, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Avatar } from '../../../components/avatar.tsx';
import { ModalDialog } from '../../../components/modal-dialog.tsx';
import { errorText } from '../../../lib/api-error.ts';
import { useGetGroupCandidatesQuery } from '../../messages/index.ts';
import {
  useAddMembersMutation,
  useLeaveGroupMutation,
  usePromoteAdminMutation,
  useRemoveMemberMutation,
  useRenameGroupMutation,
  useSetGroupPictureMutation,
} from '../api/group.api.ts';
import type { VerifiedGroup } from '../../keys/index.ts';
import { GroupSigningStatus } from './group-notice-line.tsx';

interface GroupInfoPanelProps {
  chat: ChatView;
  me: PublicUser;
  onClose: () => void;
  /** The group's verified chain (undefined while it is checked). */
  group?: VerifiedGroup | undefined;
}

/**
 * A group's details: its picture, name and members. Admins rename it, set its picture, add
 * members, make others admins and remove them; anyone can leave.
 */
export const GroupInfoPanel = ({ chat, me, onClose, group }: GroupInfoPanelProps) => {
  const { t } = useTranslation();
  const titleId = useId();
  const [, setParams] = useSearchParams();
  const [error, setError] = useState('');
  const [name, setName] = useState(chat.chatName);
  const [adding, setAdding] = useState<ReadonlySet<string>>(new Set());
  const admins = chat.admins ?? [chat.createdBy];
  const isAdmin = admins.includes(me._id);
  const memberIds = new Set(chat.participants.map((p) => p._id));
  const { data: directory = [] } = useGetGroupCandidatesQuery(undefined, { skip: !isAdmin });
  const candidates = directory.filter((user) => !memberIds.has(user._id));
  const [rename, renaming] = useRenameGroupMutation();
  const [setPicture, picturing] = useSetGroupPictureMutation();
  const [addMembers, addingMembers] = useAddMembersMutation();
  const [removeMember] = useRemoveMemberMutation();
  const [promoteAdmin] = usePromoteAdminMutation();
  const [leave, leaving] = useLeaveGroupMutation();
  const chatId = chat._id;

  const run = async (action: () => Promise<unknown>) => {
    setError('');
    try {
      await action();
      return true;
    } catch (failure) {
      setError(errorText(failure) || t('groups.failed'));
      return false;
    }
  };

  const submitName = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() && name !== chat.chatName) void run(() => rename({ chatId, groupName: name }).unwrap());
  };

  const add = async () => {
    if (await run(() => addMembers({ chatId, members: [...adding] }).unwrap())) setAdding(new Set());
  };

  const leaveGroup = async () => {
    if (!window.confirm(t('groups.leaveConfirm', { name: chat.chatName }))) return;
    if (await run(() => leave({ chatId }).unwrap())) {
      onClose();
      setParams({});
    }
  };

  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className="panel group-info">
      <h2 id={titleId}>{t('groups.info')}</h2>
      <div className="group-info__picture">
        <Avatar name={chat.chatName} picture={chat.groupPicture} size="lg" />
        {isAdmin && (
          <label className="button">
            {picturing.isLoading ? t('groups.uploading') : t('groups.changePicture')}
            <input
              type="file"
              accept="image/*"
              className="visually-hidden"
              aria-label={t('groups.picture')}
              onChange={(event) => {
                const picture = event.target.files?.[0];
                if (picture) void run(() => setPicture({ chatId, picture }).unwrap());
              }}
            />
          </label>
        )}
      </div>
      {isAdmin ? (
        <form className="group-info__name" onSubmit={submitName}>
          <label htmlFor={`${titleId}-name`}>{t('groups.nameLabel')}</label>
          <input
            id={`${titleId}-name`}
            className="field__input"
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit" className="button" disabled={renaming.isLoading}>
            {t('groups.rename')}
          </button>
        </form>
      ) : (
        <p className="group-info__title">{chat.chatName}</p>
      )}
      <GroupSigningStatus
        group={group}
        nameOf={(id) =>
          id === me._id
            ? t('common.you')
            : (chat.participants.find((person) => person._id === id)?.username ?? t('common.formerMember'))
        }
      />

      <h3>{t('groups.members')}</h3>
      <ul className="group-info__members" aria-label={t('groups.members')}>
        {chat.participants.map((person) => {
          const admin = admins.includes(person._id);
          const you = person._id === me._id;
          return (
            <li key={person._id} className="group-info__member">
              <Avatar name={person.username} picture={person.profilePicture} size="sm" />
              <span className="group-info__member-name">
                {you ? t('groups.memberYou', { name: person.username }) : person.username}
                {admin && <span className="badge">Admin</span>}
              </span>
              {isAdmin && !you && (
                <span className="group-info__member-actions">
                  {!admin && (
                    <button
                      type="button"
                      className="button"
                      onClick={() => void run(() => promoteAdmin({ chatId, userId: person._id }).unwrap())}
                    >
                      {t('groups.makeAdmin')}
                      <span className="visually-hidden"> {person.username}</span>
                    </button>
                  )}
                  <button
                    type="button"
                    className="button button--danger"
                    aria-label={t('groups.removeMember', { name: person.username })}
                    onClick={() => void run(() => removeMember({ chatId, userId: person._id }).unwrap())}
                  >
                    {t('groups.remove')}
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ul>

      {isAdmin && (
        <section aria-labelledby={`${titleId}-add`}>
          <h3 id={`${titleId}-add`}>{t('groups.addMembers')}</h3>
          <p className="group-info__note">{t('groups.joinNote')}</p>
          {candidates.length === 0 ? (
            <p className="empty-state">{t('groups.everyoneHere')}</p>
          ) : (
            <ul className="group-members__list">
              {candidates.map((user) => (
                <li key={user._id}>
                  <label className="member-option">
                    <input
                      type="checkbox"
                      checked={adding.has(user._id)}
                      onChange={() =>
                        setAdding((now) => {
                          const next = new Set(now);
                          if (!next.delete(user._id)) next.add(user._id);
                          return next;
                        })
                      }
                    />
                    <Avatar name={user.username} picture={user.profilePicture} size="sm" />
                    <span>{user.username}</span>
                  </label>
                </li>
              ))}
            </ul>
          )}
          <button
            type="button"
            className="button button--primary"
            disabled={adding.size === 0 || addingMembers.isLoading}
            onClick={() => void add()}
          >
            {addingMembers.isLoading ? t('groups.adding') : t('groups.add')}
          </button>
        </section>
      )}

      {error && (
        <p className="form__error" role="alert">
          {error}
        </p>
      )}
      <div className="form__actions">
        <button
          type="button"
          className="button button--danger"
          disabled={leaving.isLoading}
          onClick={() => void leaveGroup()}
        >
          {t('groups.leave')}
        </button>
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
      </div>
    </ModalDialog>
  );
};
