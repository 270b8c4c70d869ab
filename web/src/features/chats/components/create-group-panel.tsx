import type { ChatView, PublicUser } from '@veil/contracts';
import { useEffect, useRef, useState } from 'react';
import { isApiError } from '../../../lib/api-error.ts';
import { useCreateGroupChatMutation } from '../api/chats.api.ts';
import { GroupMembersStep } from './group-members-step.tsx';
import { GroupNameStep } from './group-name-step.tsx';

interface CreateGroupPanelProps {
  myId: string;
  onClose: () => void;
  onCreated: (chat: ChatView) => void;
}

/** Alert texts of spec sections 5 and 8, verbatim. */
const invalidGroupText = 'Please provide a valid group name and add at least one member.';
const createErrorText = 'An error occurred while creating the group chat. Please try again.';

/** Step 1 name, step 2 members; a modal dialog (focus stays inside, Escape closes). */
export const CreateGroupPanel = ({ myId, onClose, onCreated }: CreateGroupPanelProps) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const [step, setStep] = useState<1 | 2>(1);
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [create, { isLoading: creating }] = useCreateGroupChatMutation();

  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => element?.close();
  }, []);

  const toggle = (user: PublicUser) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(user._id)) next.delete(user._id);
      else next.add(user._id);
      return next;
    });

  const submit = async () => {
    const members = [...selected].filter((id) => id !== myId);
    if (!name.trim() || members.length === 0) return window.alert(invalidGroupText);
    try {
      const chat = await create({ groupName: name.trim(), participants: members }).unwrap();
      onCreated(chat);
      onClose();
    } catch (failure) {
      if (isApiError(failure) && failure.kind !== 'network') {
        window.alert(`Failed to create group chat: ${failure.message || 'Unknown error'}`);
      } else {
        console.error('Group creation failed', failure);
        window.alert(createErrorText);
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
      <h2 id="create-group-title">Create Group Chat</h2>
      <p className="panel__step">Step {step} of 2</p>
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
