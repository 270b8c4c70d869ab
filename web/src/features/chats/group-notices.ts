import type { GroupNotice } from '@veil/contracts';
import type { DisplayMessage } from '../../lib/crypto.ts';
import { t } from '../../lib/i18n.ts';
import { timerLabel } from './disappearing.ts';

const nameOf = (person: GroupNotice['by'], myId: string) =>
  person._id === myId ? t('common.you') : person.username;
const namesOf = (people: GroupNotice['members'], myId: string) =>
  people
    .map((person) => (person._id === myId ? t('common.youLower') : person.username))
    .join(t('common.listSeparator'));

/**
 * A group change or a timer change as a system line: "Alice added Dave", "You left", "Bob
 * renamed the group to “X”", "Bob set disappearing messages to 1 hour".
 */
export const noticeText = (notice: GroupNotice, myId: string): string => {
  const by = nameOf(notice.by, myId);
  const them = namesOf(notice.members, myId);
  switch (notice.kind) {
    case 'created':
      return t('notices.created', { by, name: notice.name ?? '' });
    case 'added':
      return t('notices.added', { by, them });
    case 'removed':
      return t('notices.removed', { by, them });
    case 'left':
      return t('notices.left', { by });
    case 'promoted':
      return t('notices.promoted', { by, them });
    case 'renamed':
      return t('notices.renamed', { by, name: notice.name ?? '' });
    case 'picture':
      return t('notices.picture', { by });
    case 'timer':
      return notice.seconds
        ? t('notices.timerSet', { by, duration: timerLabel(notice.seconds) })
        : t('notices.timerOff', { by });
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
