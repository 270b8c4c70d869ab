import type { ChatView, PublicUser } from '@veil/contracts';
import { useCallback, useMemo } from 'react';
import type { MentionMember } from './use-mention-picker.ts';

/** The others "@" offers in a chat as shown (a group's members as its verified chain lists them); none outside groups. */
export const mentionableMembers = (chat: ChatView, myId: string): readonly MentionMember[] =>
  chat.isGroupChat ? chat.participants.filter((p) => p._id !== myId) : [];

/**
 * Who can be mentioned in a chat: `members` (`mentionableMembers`), and `nameOf`, the current
 * name of a member (the reader included), undefined for anyone else, whose mention then reads as
 * plain text.
 */
export const useMentionMembers = (chat: ChatView, me: PublicUser) => {
  const members = useMemo(() => mentionableMembers(chat, me._id), [chat, me._id]);
  const nameOf = useCallback(
    (userId: string) =>
      userId === me._id ? me.username : chat.participants.find((p) => p._id === userId)?.username,
    [chat.participants, me._id, me.username],
  );
  return { members, nameOf };
};
