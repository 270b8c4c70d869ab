import type { GroupNotice } from '@veil/contracts';
import type { DisplayMessage } from '../messages/index.ts';
import { sentenceParts, sentenceText, type SentencePart } from '../../lib/bidi.ts';
import { t } from '../../lib/i18n.ts';
import { timerLabel } from './disappearing.ts';

/**
 * A group change or a timer change as a system line, in pieces: "Alice added Dave", "You left",
 * "Bob renamed the group to “X”", "Bob set disappearing messages to 1 hour". The sentence is
 * chosen by who "you" are (i18next context): `byYou` when the reader made the change, `you`
 * when it was done to the reader alone ("alice removed you"), since many languages conjugate
 * or inflect there. Names come out as their own pieces, so the screen can isolate their
 * direction (`<bdi>`).
 */
export const noticeParts = (notice: GroupNotice, myId: string): SentencePart[] =>
  sentenceParts((named) => {
    const byYou = notice.by._id === myId;
    const toYouAlone = !byYou && notice.members.length === 1 && notice.members[0]!._id === myId;
    const context = byYou ? 'byYou' : toYouAlone ? 'you' : undefined;
    const by = byYou ? '' : named(notice.by.username);
    const them = notice.members
      .map((person) => (person._id === myId ? t('notices.youInList') : named(person.username)))
      .join(t('common.listSeparator'));
    const name = notice.name === undefined ? '' : named(notice.name);
    switch (notice.kind) {
      case 'created':
        return t('notices.created', { by, name, context });
      case 'added':
        return t('notices.added', { by, them, context });
      case 'removed':
        return t('notices.removed', { by, them, context });
      case 'left':
        return t('notices.left', { by, context });
      case 'promoted':
        return t('notices.promoted', { by, them, context });
      case 'renamed':
        return t('notices.renamed', { by, name, context });
      case 'picture':
        return t('notices.picture', { by, context });
      case 'timer':
        return notice.seconds
          ? t('notices.timerSet', { by, duration: timerLabel(notice.seconds), context })
          : t('notices.timerOff', { by, context });
    }
  });

/** The system line as plain text. */
export const noticeText = (notice: GroupNotice, myId: string): string =>
  sentenceText(noticeParts(notice, myId));

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
