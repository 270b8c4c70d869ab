import { useTranslation } from 'react-i18next';
import { reactionCounts } from '../../messages/index.ts';

interface ReactionBarProps {
  reactionTexts: Record<string, string>;
  myId: string;
  nameOf: (userId: string) => string;
  /** Clicking a reaction sets it as mine, or takes mine back. */
  onToggle: (emoji: string) => void;
}

/** The reactions under a message: each emoji with its count; who reacted is in its name. */
export const ReactionBar = ({ reactionTexts, myId, nameOf, onToggle }: ReactionBarProps) => {
  const counts = reactionCounts(reactionTexts, myId);
  const { t } = useTranslation();
  if (!counts.length) return null;
  return (
    <ul className="reactions" aria-label={t('messages.reactions')}>
      {counts.map(({ emoji, userIds, mine }) => {
        const who = userIds
          .map((id) => (id === myId ? t('common.youLower') : nameOf(id)))
          .join(t('common.listSeparator'));
        return (
          <li key={emoji}>
            <button
              type="button"
              className={`reaction${mine ? ' reaction--mine' : ''}`}
              aria-pressed={mine}
              aria-label={t('messages.reaction', { emoji, count: userIds.length, who })}
              title={who}
              onClick={() => onToggle(emoji)}
            >
              <span aria-hidden="true">{emoji}</span> <span aria-hidden="true">{userIds.length}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
};
