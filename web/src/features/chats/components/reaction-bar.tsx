import { reactionCounts } from '../message-changes.ts';

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
  if (!counts.length) return null;
  return (
    <ul className="reactions" aria-label="Reactions">
      {counts.map(({ emoji, userIds, mine }) => {
        const who = userIds.map((id) => (id === myId ? 'you' : nameOf(id))).join(', ');
        return (
          <li key={emoji}>
            <button
              type="button"
              className={`reaction${mine ? ' reaction--mine' : ''}`}
              aria-pressed={mine}
              aria-label={`${emoji} ${userIds.length}: ${who}`}
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
