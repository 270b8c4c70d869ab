import type { GroupNotice } from '@veil/contracts';
import type { DisplayMessage } from '../../lib/crypto.ts';
import { timerLabel } from './disappearing.ts';

const nameOf = (person: GroupNotice['by'], myId: string) => (person._id === myId ? 'You' : person.username);
const namesOf = (people: GroupNotice['members'], myId: string) =>
  people.map((person) => (person._id === myId ? 'you' : person.username)).join(', ');

/**
 * A group change or a timer change as a system line: "Alice added Dave", "You left", "Bob
 * renamed the group to “X”", "Bob set disappearing messages to 1 hour".
 */
export const noticeText = (notice: GroupNotice, myId: string): string => {
  const by = nameOf(notice.by, myId);
  const them = namesOf(notice.members, myId);
  switch (notice.kind) {
    case 'created':
      return `${by} created the group “${notice.name ?? ''}”`;
    case 'added':
      return `${by} added ${them}`;
    case 'removed':
      return `${by} removed ${them}`;
    case 'left':
      return `${by} left`;
    case 'promoted':
      return `${by} made ${them} an admin`;
    case 'renamed':
      return `${by} renamed the group to “${notice.name ?? ''}”`;
    case 'picture':
      return `${by} changed the group picture`;
    case 'timer':
      return notice.seconds
        ? `${by} set disappearing messages to ${timerLabel(notice.seconds)}`
        : `${by} turned off disappearing messages`;
  }
};

export type TimelineItem =
  { kind: 'message'; message: DisplayMessage } | { kind: 'notice'; notice: GroupNotice };

/**
 * Messages and system lines in time order. While older messages remain to be loaded, system
 * lines older than the oldest message shown wait with them.
 */
export const timelineOf = (
  messages: readonly DisplayMessage[],
  notices: readonly GroupNotice[],
  hasMore: boolean,
): TimelineItem[] => {
  const from = hasMore && messages[0] ? messages[0].createdAt : '';
  const items: TimelineItem[] = [
    ...messages.map((message) => ({ kind: 'message' as const, message })),
    ...notices.filter((notice) => notice.at >= from).map((notice) => ({ kind: 'notice' as const, notice })),
  ];
  const at = (item: TimelineItem) => (item.kind === 'message' ? item.message.createdAt : item.notice.at);
  // Stable: messages keep their seq order among themselves.
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => (at(a.item) < at(b.item) ? -1 : at(a.item) > at(b.item) ? 1 : a.index - b.index))
    .map(({ item }) => item);
};
