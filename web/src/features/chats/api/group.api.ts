import type { ChatView } from '@veil/contracts';
import { api, listTag } from '../../../lib/api.ts';

const path = (chatId: string) => `chat/${encodeURIComponent(chatId)}`;
/** The group as its member sees it now; null once they have left it. */
type Changed = ChatView | null;
const changed = (_result: unknown, _error: unknown, { chatId }: { chatId: string }) => [
  { type: 'Chat' as const, id: chatId },
  { type: 'Chat' as const, id: listTag },
];

/** Group changes (docs/api.md, "Groups"): admins add, remove, promote, rename, set the picture; anyone leaves. */
export const groupApi = api.injectEndpoints({
  endpoints: (build) => ({
    addMembers: build.mutation<Changed, { chatId: string; members: string[] }>({
      query: ({ chatId, members }) => ({ url: `${path(chatId)}/members`, method: 'POST', body: { members } }),
      invalidatesTags: changed,
    }),
    removeMember: build.mutation<Changed, { chatId: string; userId: string }>({
      query: ({ chatId, userId }) => ({
        url: `${path(chatId)}/members/${encodeURIComponent(userId)}`,
        method: 'DELETE',
      }),
      invalidatesTags: changed,
    }),
    promoteAdmin: build.mutation<Changed, { chatId: string; userId: string }>({
      query: ({ chatId, userId }) => ({ url: `${path(chatId)}/admins`, method: 'POST', body: { userId } }),
      invalidatesTags: changed,
    }),
    renameGroup: build.mutation<Changed, { chatId: string; groupName: string }>({
      query: ({ chatId, groupName }) => ({ url: `${path(chatId)}/name`, method: 'PUT', body: { groupName } }),
      invalidatesTags: changed,
    }),
    setGroupPicture: build.mutation<Changed, { chatId: string; picture: File | null }>({
      query: ({ chatId, picture }) => {
        const body = new FormData();
        if (picture) body.append('profilePicture', picture);
        return { url: `${path(chatId)}/picture`, method: 'PUT', body };
      },
      invalidatesTags: changed,
    }),
    /** Any member of any chat: messages sent from now on disappear after `seconds` (0: off). */
    setDisappearingTimer: build.mutation<Changed, { chatId: string; seconds: number }>({
      query: ({ chatId, seconds }) => ({
        url: `${path(chatId)}/disappearing`,
        method: 'PUT',
        body: { seconds },
      }),
      invalidatesTags: changed,
    }),
    leaveGroup: build.mutation<Changed, { chatId: string }>({
      query: ({ chatId }) => ({ url: `${path(chatId)}/leave`, method: 'POST' }),
      invalidatesTags: changed,
    }),
  }),
});

export const {
  useAddMembersMutation,
  useRemoveMemberMutation,
  usePromoteAdminMutation,
  useRenameGroupMutation,
  useSetGroupPictureMutation,
  useLeaveGroupMutation,
  useSetDisappearingTimerMutation,
} = groupApi;
