import type { ChatEvent, GroupChangeEntry } from '@veil/contracts';

/** A chat event as a group change served to members, or null for events that change no group. */
export const groupChangeEntry = (event: ChatEvent): GroupChangeEntry | null => {
  const entry = (
    by: string,
    signedChange: GroupChangeEntry['signedChange'] | undefined,
  ): GroupChangeEntry => ({
    type: event.type as GroupChangeEntry['type'],
    by,
    at: event.occurredAt,
    signedChange: signedChange ?? null,
  });
  switch (event.type) {
    case 'GroupChatCreated':
      return entry(event.data.createdBy, event.data.signedChange);
    case 'ChatMembersAdded':
      return entry(event.data.addedBy, event.data.signedChange);
    case 'ChatMemberRemoved':
      return entry(event.data.removedBy, event.data.signedChange);
    case 'ChatMemberLeft':
      return entry(event.data.memberId, event.data.signedChange);
    case 'ChatAdminPromoted':
      return entry(event.data.promotedBy, event.data.signedChange);
    case 'GroupRenamed':
      return entry(event.data.renamedBy, event.data.signedChange);
    case 'GroupPictureChanged':
      return entry(event.data.changedBy, event.data.signedChange);
    case 'DisappearingTimerSet':
      return entry(event.data.setBy, event.data.signedChange);
    case 'GroupStateSigned':
      return entry(event.data.signedChange.signerId, event.data.signedChange);
    case 'DirectChatCreated':
    case 'DirectPairClaimed':
    case 'ChatArchiveSet':
    case 'ChatPinSet':
      return null;
    default: {
      const unhandled: never = event;
      return unhandled;
    }
  }
};
