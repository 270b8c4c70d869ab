import type { FetchArgs } from '@reduxjs/toolkit/query';
import type { ChatView } from '@veil/contracts';
import type { GroupChangeBody, GroupChangeKind } from '@veil/crypto';
import { api, listTag } from '../../../lib/api.ts';
import type { ApiError } from '../../../lib/api-error.ts';
import { pictureHashOf, signedGroupChange, signingFailed } from '../../keys/index.ts';
import type { SessionState } from '../../../lib/session.slice.ts';

const path = (chatId: string) => `chat/${encodeURIComponent(chatId)}`;
/** The group as its member sees it now; null once they have left it. */
type Changed = ChatView | null;
const changed = (_result: unknown, _error: unknown, { chatId }: { chatId: string }) => [
  { type: 'Chat' as const, id: chatId },
  { type: 'Chat' as const, id: listTag },
];

type BaseQueryCall = (args: FetchArgs) => Promise<{ data?: unknown; error?: ApiError }>;
type QueryApi = { getState: () => unknown };
type ChangeBody = Partial<GroupChangeBody> & { kind: GroupChangeKind };

/**
 * Sends a group change signed by this account (docs/crypto.md, "Signed group state"): the
 * signed change goes in the JSON body, or as a JSON form field on the multipart picture route.
 */
const sendSigned = async (
  queryApi: QueryApi,
  baseQuery: unknown,
  chatId: string,
  body: ChangeBody | ((accountId: string) => Promise<ChangeBody> | ChangeBody),
  request: FetchArgs,
) => {
  const accountId = (queryApi.getState() as { session: SessionState }).session.data?._id;
  let signedChange;
  try {
    if (accountId) {
      const change = typeof body === 'function' ? await body(accountId) : body;
      signedChange = await signedGroupChange(accountId, chatId, change);
    }
  } catch (error) {
    return { error: signingFailed(error) };
  }
  let sent = request;
  if (signedChange && request.body instanceof FormData) {
    request.body.append('signedChange', JSON.stringify(signedChange));
  } else if (signedChange) {
    sent = { ...request, body: { ...(request.body as object | undefined), signedChange } };
  }
  const result = await (baseQuery as BaseQueryCall)(sent);
  return result.error ? { error: result.error } : { data: result.data as Changed };
};

/** Group changes (docs/api.md, "Groups"): admins add, remove, promote, rename, set the picture; anyone leaves. */
export const groupApi = api.injectEndpoints({
  endpoints: (build) => ({
    addMembers: build.mutation<Changed, { chatId: string; members: string[] }>({
      queryFn: ({ chatId, members }, queryApi, _extra, baseQuery) =>
        sendSigned(
          queryApi,
          baseQuery,
          chatId,
          { kind: 'members-added', memberIds: members },
          { url: `${path(chatId)}/members`, method: 'POST', body: { members } },
        ),
      invalidatesTags: changed,
    }),
    removeMember: build.mutation<Changed, { chatId: string; userId: string }>({
      queryFn: ({ chatId, userId }, queryApi, _extra, baseQuery) =>
        sendSigned(
          queryApi,
          baseQuery,
          chatId,
          { kind: 'member-removed', memberIds: [userId] },
          { url: `${path(chatId)}/members/${encodeURIComponent(userId)}`, method: 'DELETE' },
        ),
      invalidatesTags: changed,
    }),
    promoteAdmin: build.mutation<Changed, { chatId: string; userId: string }>({
      queryFn: ({ chatId, userId }, queryApi, _extra, baseQuery) =>
        sendSigned(
          queryApi,
          baseQuery,
          chatId,
          { kind: 'admin-promoted', memberIds: [userId] },
          { url: `${path(chatId)}/admins`, method: 'POST', body: { userId } },
        ),
      invalidatesTags: changed,
    }),
    renameGroup: build.mutation<Changed, { chatId: string; groupName: string }>({
      queryFn: ({ chatId, groupName }, queryApi, _extra, baseQuery) =>
        sendSigned(
          queryApi,
          baseQuery,
          chatId,
          { kind: 'renamed', name: groupName.trim() },
          { url: `${path(chatId)}/name`, method: 'PUT', body: { groupName } },
        ),
      invalidatesTags: changed,
    }),
    setGroupPicture: build.mutation<Changed, { chatId: string; picture: File | null }>({
      queryFn: ({ chatId, picture }, queryApi, _extra, baseQuery) => {
        const body = new FormData();
        if (picture) body.append('profilePicture', picture);
        return sendSigned(
          queryApi,
          baseQuery,
          chatId,
          async () => ({
            kind: 'picture-changed',
            pictureHash: picture ? await pictureHashOf(picture) : null,
          }),
          { url: `${path(chatId)}/picture`, method: 'PUT', body },
        );
      },
      invalidatesTags: changed,
    }),
    /** Any member of any chat: messages sent from now on disappear after `seconds` (0: off). */
    setDisappearingTimer: build.mutation<Changed, { chatId: string; seconds: number }>({
      queryFn: ({ chatId, seconds }, queryApi, _extra, baseQuery) =>
        sendSigned(
          queryApi,
          baseQuery,
          chatId,
          { kind: 'timer-set', timerSeconds: seconds },
          { url: `${path(chatId)}/disappearing`, method: 'PUT', body: { seconds } },
        ),
      invalidatesTags: changed,
    }),
    leaveGroup: build.mutation<Changed, { chatId: string }>({
      queryFn: ({ chatId }, queryApi, _extra, baseQuery) =>
        sendSigned(
          queryApi,
          baseQuery,
          chatId,
          (accountId) => ({ kind: 'member-left', memberIds: [accountId] }),
          { url: `${path(chatId)}/leave`, method: 'POST' },
        ),
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
