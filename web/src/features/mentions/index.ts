/**
 * Mentions in group messages: the "@" picker, their text and ranges, the unread marks.
 * This file is the feature's public entry point: other features import only from here.
 */
export { MentionPicker } from './mention-picker.tsx';
export { mentionsUser, withCurrentNames } from './mention-text.ts';
export { MentionedTextView } from './mentioned-text.tsx';
export { clearMentioned, useMentioned } from './unread-mentions.ts';
export { mentionableMembers, useMentionMembers } from './use-mention-members.ts';
export { useMentionPicker, type MentionedText, type MentionMember } from './use-mention-picker.ts';
