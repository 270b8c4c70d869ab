import {
  DomainError,
  disappearingTimers,
  limits,
  type EventData,
  type SignedGroupChangeData,
} from '@veil/contracts';
import type { Decider } from '@veil/kernel';

/** A chat as group rules see it, folded from its stream. */
export interface GroupState {
  exists: boolean;
  isGroup: boolean;
  /** In the order they joined: the longest-standing first. */
  members: string[];
  admins: string[];
  /** The disappearing-message timer in seconds (0: off). */
  disappearingSeconds: number;
  name: string;
  /**
   * The newest signed change (docs/crypto.md, "Signed group state"); null while the group's
   * state is not signed. From the first one on, every change must be signed and extend it.
   */
  signedHead: SignedGroupChangeData | null;
}

const removeId = (ids: readonly string[], id: string) => ids.filter((other) => other !== id);

export type GroupChange =
  | { kind: 'add'; memberIds: readonly string[] }
  | { kind: 'remove'; memberId: string }
  | { kind: 'promote'; memberId: string }
  | { kind: 'rename'; name: string }
  | { kind: 'picture'; pictureKey: string | null }
  | { kind: 'leave' }
  | { kind: 'timer'; seconds: number };

/** What a member asks of a group's stream; the caller is the token's user. */
export type GroupCommand =
  | {
      type: 'CreateGroup';
      userId: string;
      chatId: string;
      name: string;
      memberIds: readonly string[];
      signedChange?: SignedGroupChangeData | undefined;
    }
  | {
      type: 'ChangeGroup';
      userId: string;
      chatId: string;
      change: GroupChange;
      signedChange?: SignedGroupChangeData | undefined;
    };

/** The events a group command records. */
export type GroupDecision = { [T in GroupEventType]: { type: T; data: EventData<T> } }[GroupEventType];

export const groupDecider: Decider<GroupCommand, GroupState, 'chat', GroupDecision> = {
  context: 'chat',
  decide(command, state) {
    const decided =
      command.type === 'CreateGroup' ? decideCreation(command, state) : decideChange(command, state);
    const { signedChange } = command;
    // Every group event carries the member's signed change, when they sent one.
    return signedChange
      ? decided.map((event) => ({ ...event, data: { ...event.data, signedChange } }) as GroupDecision)
      : decided;
  },
  initialState: () => ({
    exists: false,
    isGroup: false,
    members: [],
    admins: [],
    disappearingSeconds: 0,
    name: '',
    signedHead: null,
  }),
  evolve(before, event) {
    const signedChange = 'signedChange' in event.data ? event.data.signedChange : undefined;
    const state = signedChange ? { ...before, signedHead: signedChange } : before;
    switch (event.type) {
      case 'DirectChatCreated':
        return { ...state, exists: true, isGroup: false, members: [...event.data.members], admins: [] };
      case 'GroupChatCreated':
        return {
          ...state,
          exists: true,
          isGroup: true,
          members: [...event.data.members],
          admins: [event.data.createdBy],
          name: event.data.name,
        };
      case 'ChatMembersAdded':
        return { ...state, members: [...new Set([...state.members, ...event.data.members])] };
      case 'ChatMemberRemoved':
        return {
          ...state,
          members: removeId(state.members, event.data.memberId),
          admins: removeId(state.admins, event.data.memberId),
        };
      case 'ChatMemberLeft': {
        const admins = removeId(state.admins, event.data.memberId);
        return {
          ...state,
          members: removeId(state.members, event.data.memberId),
          admins: event.data.newAdmin ? [...admins, event.data.newAdmin] : admins,
        };
      }
      case 'ChatAdminPromoted':
        return state.admins.includes(event.data.memberId)
          ? state
          : { ...state, admins: [...state.admins, event.data.memberId] };
      case 'DisappearingTimerSet':
        return { ...state, disappearingSeconds: event.data.seconds };
      case 'GroupRenamed':
        return { ...state, name: event.data.name };
      case 'GroupPictureChanged':
      case 'GroupStateSigned':
      case 'DirectPairClaimed':
      case 'ChatArchiveSet':
      case 'ChatPinSet':
        return state;
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
};

type GroupEventType =
  | 'GroupChatCreated'
  | 'ChatMembersAdded'
  | 'ChatMemberRemoved'
  | 'ChatMemberLeft'
  | 'ChatAdminPromoted'
  | 'GroupRenamed'
  | 'GroupPictureChanged'
  | 'DisappearingTimerSet';

const chatNotFound = () => new DomainError('CHAT_NOT_FOUND', 'Chat not found');
const invalid = (message: string) => new DomainError('VALIDATION_FAILED', message);

/** A group's name as members see it: trimmed, not empty, within the limit. */
const groupNameOf = (name: string): string => {
  const trimmed = name.trim();
  if (!trimmed) throw invalid('groupName is required');
  if (trimmed.length > limits.groupNameMax)
    throw invalid(`groupName must be at most ${limits.groupNameMax} characters`);
  return trimmed;
};

/**
 * A new group: its creator and at least one other person (each once), within the size limit,
 * on a stream not used before (a signed creation names its id, so a taken one is refused).
 */
const decideCreation = (
  { userId, chatId, name, memberIds }: Extract<GroupCommand, { type: 'CreateGroup' }>,
  state: GroupState,
): GroupDecision[] => {
  if (state.exists) throw new DomainError('VERSION_CONFLICT', 'That group id is taken');
  const others = [...new Set(memberIds)].filter((id) => id !== userId);
  if (others.length === 0) throw invalid('At least one other member is required');
  if (others.length + 1 > limits.groupMaxMembers) throw invalid('Too many members');
  const members = [userId, ...others];
  return [
    { type: 'GroupChatCreated', data: { chatId, name: groupNameOf(name), members, createdBy: userId } },
  ];
};

const decideChange = (
  { userId, chatId, change }: Extract<GroupCommand, { type: 'ChangeGroup' }>,
  state: GroupState,
): GroupDecision[] => {
  const decision = decideGroupChange(userId, chatId, change, state);
  return decision ? [decision] : [];
};

/**
 * The rules of a group, without I/O. A chat that is not yours answers as one that does not
 * exist; only groups change; admins add, remove and promote members, rename the group and set
 * its picture (anyone else: 403); any member may leave, and a last admin who leaves promotes
 * the longest-standing member left. Returns the event to record, or null when nothing changes
 * (promoting an admin). Names are checked by the contract's schema before this. The
 * disappearing-message timer is the one change any member of any chat, one-to-one too, makes:
 * one of the allowed values, recorded only when it changes.
 */
export const decideGroupChange = (
  userId: string,
  chatId: string,
  change: GroupChange,
  state: GroupState,
): GroupDecision | null => {
  if (!state.exists || !state.members.includes(userId)) throw chatNotFound();
  if (change.kind === 'timer') {
    if (!(disappearingTimers as readonly number[]).includes(change.seconds))
      throw invalid(`seconds must be one of ${disappearingTimers.join(', ')}`);
    if (change.seconds === state.disappearingSeconds) return null;
    return { type: 'DisappearingTimerSet', data: { chatId, seconds: change.seconds, setBy: userId } };
  }
  if (!state.isGroup) throw invalid('Only a group chat has members to change');
  if (change.kind === 'leave') {
    const remaining = removeId(state.members, userId);
    const lastAdmin = state.admins.length === 1 && state.admins[0] === userId;
    const newAdmin = lastAdmin ? (remaining[0] ?? null) : null;
    return { type: 'ChatMemberLeft', data: { chatId, memberId: userId, newAdmin } };
  }
  if (!state.admins.includes(userId)) throw new DomainError('FORBIDDEN', 'Only a group admin can do that');
  switch (change.kind) {
    case 'add': {
      const added = [...new Set(change.memberIds)].filter((id) => !state.members.includes(id));
      if (!added.length) throw invalid('They are already members');
      if (state.members.length + added.length > limits.groupMaxMembers) throw invalid('Too many members');
      return { type: 'ChatMembersAdded', data: { chatId, members: added, addedBy: userId } };
    }
    case 'remove':
      if (change.memberId === userId) throw invalid('To leave the group, leave it');
      if (!state.members.includes(change.memberId)) throw invalid('Not a member of this group');
      return { type: 'ChatMemberRemoved', data: { chatId, memberId: change.memberId, removedBy: userId } };
    case 'promote':
      if (!state.members.includes(change.memberId)) throw invalid('Not a member of this group');
      if (state.admins.includes(change.memberId)) return null;
      return { type: 'ChatAdminPromoted', data: { chatId, memberId: change.memberId, promotedBy: userId } };
    case 'rename':
      return { type: 'GroupRenamed', data: { chatId, name: groupNameOf(change.name), renamedBy: userId } };
    case 'picture':
      return {
        type: 'GroupPictureChanged',
        data: { chatId, pictureKey: change.pictureKey, changedBy: userId },
      };
  }
};
