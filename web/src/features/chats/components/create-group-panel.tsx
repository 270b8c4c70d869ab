import type { ChatView, PublicUser } from '@veil/contracts';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useModalDialog } from '../../../components/modal-dialog.tsx';
import { errorText, isApiError } from '../../../lib/api-error.ts';
import { useCreateGroupChatMutation } from '../../messages/index.ts';
import { GroupMembersStep } from './group-members-step.tsx';
import { GroupNameStep } from './group-name-step.tsx';

interface CreateGroupPanelProps {
  myId: string;
  onClose: () => void;
  onCreated: (chat: ChatView) => void;
}

/** Step 1 name, step 2 members; a modal dialog (focus stays inside, Escape closes). */
export const CreateGroupPanel = ({ myId, onClose, onCreated }: CreateGroupPanelProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState<1 | 2>(1);
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [create, { isLoading: creating }] = useCreateGroupChatMutation();
  const { t } = useTranslation();

  useModalDialog(dialog);

  const toggle = (user: PublicUser) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(user._id)) next.delete(user._id);
      else next.add(user._id);
      return next;
    });

  const submit = async () => {
    const members = [...selected].filter((id) => id !== myId);
    if (!name.trim() || members.length === 0) return window.alert(t('groups.invalid'));
    try {
      const chat = await create({ groupName: name.trim(), participants: members }).unwrap();
      onCreated(chat);
      onClose();
    } catch (failure) {
      if (isApiError(failure) && failure.kind !== 'network') {
        window.alert(t('groups.createFailed', { reason: errorText(failure) || t('send.unknown') }));
      } else {
        console.error('Group creation failed', failure);
        window.alert(t('groups.createError'));
      }
    }
  };

  return (
    <dialog
      ref={dialog}
      className="panel"
      aria-labelledby="create-group-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="create-group-title">{t('groups.createTitle')}</h2>
      <p className="panel__step">{t('groups.step', { step, steps: 2 })}</p>
      {step === 1 ? (
        <GroupNameStep name={name} onName={setName} onNext={() => setStep(2)} onClose={onClose} />
      ) : (
        <GroupMembersStep
          myId={myId}
          selected={selected}
          onToggle={toggle}
          creating={creating}
          onCreate={() => void submit()}
          onBack={() => setStep(1)}
          onClose={onClose}
        />
      )}
    </dialog>
  );
};
