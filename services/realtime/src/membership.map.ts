import type { ChatEvent } from '@veil/contracts';

/**
 * Who belongs to which chat, built only from chat events (never from client payloads).
 * Pure state: `apply` takes one event and reports what changed, so it is unit-testable
 * and the live follower (membership.projection.ts) stays a thin wrapper.
 */
export interface ChatMembership {
  chatId: string;
  isGroup: boolean;
  members: ReadonlySet<string>;
}

/**
 * A chat event applied: members that joined or went (removed or left), with the members it had
 * before (empty for a new chat). A group's other changes (admins, name, picture) change no one.
 */
export interface MembershipChange {
  chatId: string;
  isGroup: boolean;
  added: string[];
  removed: string[];
  previous: string[];
  /** A setting every kind of chat has changed (the disappearing timer): its members are told too. */
  settingChanged?: true;
}

export interface MembershipMap {
  apply(event: ChatEvent): MembershipChange | null;
  chat(chatId: string): ChatMembership | undefined;
  isMember(chatId: string, userId: string): boolean;
  /** The one-to-one chat of two users, if any. */
  directChatBetween(a: string, b: string): string | undefined;
  /** Everyone who shares at least one chat with `userId`, never `userId` itself. */
  contactsOf(userId: string): string[];
}

const pairKey = (a: string, b: string) => (a < b ? `${a}|${b}` : `${b}|${a}`);

export const createMembershipMap = (): MembershipMap => {
  const chats = new Map<string, { chatId: string; isGroup: boolean; members: Set<string> }>();
  const chatsByUser = new Map<string, Set<string>>();
  const directByPair = new Map<string, string>();

  const addMembers = (chatId: string, isGroup: boolean, members: readonly string[]): MembershipChange => {
    let chat = chats.get(chatId);
    if (!chat) {
      chat = { chatId, isGroup, members: new Set() };
      chats.set(chatId, chat);
    }
    const previous = [...chat.members];
    const added: string[] = [];
    for (const member of members) {
      if (chat.members.has(member)) continue;
      chat.members.add(member);
      added.push(member);
      let own = chatsByUser.get(member);
      if (!own) chatsByUser.set(member, (own = new Set()));
      own.add(chatId);
    }
    return { chatId, isGroup, added, removed: [], previous };
  };

  const removeMember = (chatId: string, member: string): MembershipChange | null => {
    const chat = chats.get(chatId);
    if (!chat) return null;
    const previous = [...chat.members];
    if (!chat.members.delete(member))
      return { chatId, isGroup: chat.isGroup, added: [], removed: [], previous };
    chatsByUser.get(member)?.delete(chatId);
    return { chatId, isGroup: chat.isGroup, added: [], removed: [member], previous };
  };

  const unchanged = (chatId: string): MembershipChange | null => {
    const chat = chats.get(chatId);
    return chat
      ? { chatId, isGroup: chat.isGroup, added: [], removed: [], previous: [...chat.members] }
      : null;
  };

  return {
    apply(event) {
      switch (event.type) {
        case 'DirectChatCreated': {
          const [a, b] = event.data.members;
          if (!directByPair.has(pairKey(a, b))) directByPair.set(pairKey(a, b), event.data.chatId);
          return addMembers(event.data.chatId, false, event.data.members);
        }
        case 'GroupChatCreated':
          return addMembers(event.data.chatId, true, event.data.members);
        case 'ChatMembersAdded': {
          const chat = chats.get(event.data.chatId);
          // Members are only ever added to groups; an unknown chat means a log we cannot trust, so skip.
          if (!chat) return null;
          return addMembers(event.data.chatId, chat.isGroup, event.data.members);
        }
        case 'ChatMemberRemoved':
        case 'ChatMemberLeft':
          return removeMember(event.data.chatId, event.data.memberId);
        case 'ChatAdminPromoted':
        case 'GroupRenamed':
        case 'GroupPictureChanged':
          return unchanged(event.data.chatId);
        case 'DisappearingTimerSet': {
          const change = unchanged(event.data.chatId);
          return change && { ...change, settingChanged: true };
        }
        case 'GroupStateSigned': // a signed record of the state, which it does not change
          return unchanged(event.data.chatId);
        case 'DirectPairClaimed':
          return null; // the claim precedes DirectChatCreated, which carries the members
        case 'ChatArchiveSet':
        case 'ChatPinSet':
          return null; // one account's list, not the chat's members
        default: {
          const exhaustive: never = event;
          return exhaustive;
        }
      }
    },
    chat: (chatId) => chats.get(chatId),
    isMember: (chatId, userId) => chats.get(chatId)?.members.has(userId) ?? false,
    directChatBetween: (a, b) => directByPair.get(pairKey(a, b)),
    contactsOf(userId) {
      const contacts = new Set<string>();
      for (const chatId of chatsByUser.get(userId) ?? []) {
        for (const member of chats.get(chatId)?.members ?? []) contacts.add(member);
      }
      contacts.delete(userId);
      return [...contacts];
    },
  };
};
