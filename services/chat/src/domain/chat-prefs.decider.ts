import { DomainError, limits, type EventData } from '@veil/contracts';
import type { Decider } from '@veil/kernel';

/** How one account keeps its chat list (`chatprefs-<userId>`): archived and pinned chats, oldest first. */
export interface ChatPrefsState {
  archived: string[];
  pinned: string[];
}

/**
 * The caller is the token's user. `memberChats` are the chats the caller is in now (read by the
 * handler): a chat one is not in cannot be kept, and pins of chats one left do not count.
 */
export type ChatPrefsCommand = {
  userId: string;
  chatId: string;
  memberChats: ReadonlySet<string>;
} & ({ type: 'SetArchived'; archived: boolean } | { type: 'SetPinned'; pinned: boolean });

export type ChatPrefsDecision =
  | { type: 'ChatArchiveSet'; data: EventData<'ChatArchiveSet'> }
  | { type: 'ChatPinSet'; data: EventData<'ChatPinSet'> };

const toggled = (ids: readonly string[], id: string, on: boolean) =>
  on ? [...ids.filter((other) => other !== id), id] : ids.filter((other) => other !== id);

/**
 * WhatsApp's rules: archiving a pinned chat unpins it, pinning an archived chat brings it back,
 * at most `limits.pinnedChatsMax` pinned chats; asking for what already holds records nothing.
 */
export const chatPrefsDecider: Decider<ChatPrefsCommand, ChatPrefsState, 'chat', ChatPrefsDecision> = {
  context: 'chat',
  initialState: () => ({ archived: [], pinned: [] }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'ChatArchiveSet':
        return { ...state, archived: toggled(state.archived, event.data.chatId, event.data.archived) };
      case 'ChatPinSet':
        return { ...state, pinned: toggled(state.pinned, event.data.chatId, event.data.pinned) };
      default:
        return state;
    }
  },
  decide: (command, state) => {
    const { userId, chatId, memberChats } = command;
    if (!memberChats.has(chatId)) throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
    const isArchived = state.archived.includes(chatId);
    const isPinned = state.pinned.includes(chatId);
    const archive = (archived: boolean): ChatPrefsDecision => ({
      type: 'ChatArchiveSet',
      data: { userId, chatId, archived },
    });
    const pin = (pinned: boolean): ChatPrefsDecision => ({
      type: 'ChatPinSet',
      data: { userId, chatId, pinned },
    });
    if (command.type === 'SetArchived') {
      if (command.archived === isArchived) return [];
      return command.archived && isPinned ? [pin(false), archive(true)] : [archive(command.archived)];
    }
    if (command.pinned === isPinned) return [];
    if (!command.pinned) return [pin(false)];
    const pinnedNow = state.pinned.filter((id) => memberChats.has(id)).length;
    if (pinnedNow >= limits.pinnedChatsMax)
      throw new DomainError(
        'PIN_LIMIT_REACHED',
        `You can pin up to ${limits.pinnedChatsMax} chats. Unpin one first.`,
      );
    return isArchived ? [archive(false), pin(true)] : [pin(true)];
  },
};
