import type { MessageMention } from '@veil/crypto';
import { LinkifiedText } from '../../components/linkified-text.tsx';
import { mentionSegments } from './mention-text.ts';

interface MentionedTextProps {
  text: string;
  mentions: readonly MessageMention[] | undefined;
  /** A member's current name; undefined for anyone else (their mention stays text). */
  nameOf: (userId: string) => string | undefined;
  myId: string;
}

/**
 * A message's text with its mentions shown as "@" and the member's current name, highlighted
 * (more strongly when it names the reader); the rest with its links, as text, never as HTML.
 */
export const MentionedTextView = ({ text, mentions, nameOf, myId }: MentionedTextProps) => (
  <>
    {mentionSegments(text, mentions, nameOf).map((segment, index) =>
      segment.kind === 'text' ? (
        <LinkifiedText key={index} text={segment.text} />
      ) : (
        <span
          key={index}
          className={`mention${segment.userId === myId ? ' mention--me' : ''}`}
          data-testid={segment.userId === myId ? 'mention-of-me' : 'mention'}
        >
          <bdi>@{segment.name}</bdi>
        </span>
      ),
    )}
  </>
);
