import type { MessageMention } from '@veil/crypto';
import {
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { insertMention, membersMatching, mentionQueryAt, shiftMentions } from './mention-text.ts';

export interface MentionMember {
  _id: string;
  username: string;
  profilePicture?: string | null;
}

/** A text box's text with the mentions picked in it. */
export interface MentionedText {
  text: string;
  mentions: MessageMention[];
}

/** The most members the picker lists at once: typing more narrows it. */
const shownAtMost = 8;

/**
 * The member picker of a text box: "@" at the start of a word opens it, what follows filters the
 * members, arrows move through them, Enter or Tab picks one (putting "@name " in the text and its
 * range in the mentions), Escape closes it until another "@" is typed. The box stays a text box
 * (several lines, Enter sends); it points at the list and the active option
 * (`aria-controls`, `aria-activedescendant`), as a combobox's input does.
 */
export const useMentionPicker = ({
  value,
  members,
  input,
  onChange,
}: {
  value: MentionedText;
  members: readonly MentionMember[];
  input: RefObject<HTMLTextAreaElement | null>;
  onChange: (next: MentionedText) => void;
}) => {
  const [caret, setCaret] = useState<number | null>(null);
  const [active, setActive] = useState(0);
  // Where the "@" was that Escape closed the picker for.
  const [closedAt, setClosedAt] = useState<number | null>(null);
  // Where the caret goes once the picked mention's text is in the box.
  const caretAfterPick = useRef<number | null>(null);
  const listId = useId();
  const query =
    caret === null || members.length === 0 ? null : mentionQueryAt(value.text, caret, value.mentions);
  const options = query ? membersMatching(members, query.query).slice(0, shownAtMost) : [];
  const open = query !== null && options.length > 0 && closedAt !== query.start;
  const activeIndex = Math.min(active, Math.max(0, options.length - 1));
  const optionId = (index: number) => `${listId}-${index}`;

  // A new query starts at its best match.
  useEffect(() => setActive(0), [query?.start, query?.query]);

  // In the commit that puts the picked mention in the box, before the browser handles another key:
  // a caret placed any later (a frame, a timeout) would pull keys typed meanwhile back before them.
  useLayoutEffect(() => {
    const at = caretAfterPick.current;
    const box = input.current;
    if (at === null || !box || box.value !== value.text) return;
    caretAfterPick.current = null;
    box.focus();
    box.setSelectionRange(at, at);
  }, [value.text, input]);

  /** Follows the caret (typing, clicks, arrow keys): the query is the word before it. */
  const trackCaret = () => setCaret(input.current?.selectionStart ?? null);

  /** The box's new text, typed or pasted: the mentions move with it, and one that was changed goes. */
  const change = (text: string, at: number | null) => {
    const mentions = shiftMentions(value.text, text, value.mentions);
    onChange({ text, mentions });
    setCaret(at);
    // No "@" being typed any more: the next one opens the picker again.
    if (at === null || !mentionQueryAt(text, at, mentions)) setClosedAt(null);
  };

  const pick = (member: MentionMember) => {
    if (!query || caret === null) return;
    const next = insertMention(value.text, value.mentions, { start: query.start, caret }, member);
    onChange({ text: next.text, mentions: next.mentions });
    setCaret(next.caret);
    caretAfterPick.current = next.caret;
  };

  /** Handles the picker's keys while it is open; true when the key was its. */
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): boolean => {
    if (!open || !query || event.nativeEvent.isComposing) return false;
    const count = options.length;
    if (event.key === 'ArrowDown') setActive((activeIndex + 1) % count);
    else if (event.key === 'ArrowUp') setActive((activeIndex - 1 + count) % count);
    else if (event.key === 'Enter' || event.key === 'Tab') pick(options[activeIndex]!);
    else if (event.key === 'Escape') setClosedAt(query.start);
    else return false;
    event.preventDefault();
    event.stopPropagation();
    return true;
  };

  /** What the text box carries for assistive technology. */
  const inputProps = {
    'aria-autocomplete': 'list' as const,
    'aria-controls': open ? listId : undefined,
    'aria-activedescendant': open ? optionId(activeIndex) : undefined,
  };

  return { open, options, activeIndex, listId, optionId, pick, change, onKeyDown, trackCaret, inputProps };
};
