import type { ChatView, GroupNotice } from '@veil/contracts';
import { blockListAfter, mediaUrl, pairStreamId } from '@veil/contracts';
import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';

/**
 * Chats and the participant details they show. Participant names and pictures come from the
 * user context's events, so a rename or a new picture shows in every chat without a join;
 * `updatedAt` follows the message context, so the list is ordered by last activity.
 */
export interface ChatDoc {
  _id: string;
  isGroupChat: boolean;
  name: string;
  members: string[];
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  /** The newest ULID seen in this chat (its own id, then each message's): sorts the list by activity. */
  lastActivityId: string;
  /** One-to-one chats: the pair's stream id, so finding a pair's chat is one indexed read. */
  pairKey: string | null;
  /** Position of the creating event in the chat log (other services wait for it). */
  createdPosition: number;
  /** Groups: its admins (absent on chats stored before groups had admins: the creator). */
  admins?: string[];
  pictureKey?: string | null;
  /** The newest changes (of a group, and of any chat's timer), oldest first, for its system lines. */
  notices?: NoticeDoc[];
  /** The disappearing-message timer in seconds; absent: off. */
  disappearingSeconds?: number;
  /** Groups: when an admin signed the state of a group made before changes were signed. */
  stateSignedAt?: string;
  /** Groups: members an admin removed, who still see it as it was then (by user id). */
  removed?: Record<string, RemovedDoc>;
  /** The keys of `removed`, so that a removed member's list finds the group by index. */
  removedMembers?: string[];
  /** Members who archived it: when, and the chat's `lastActivityId` then (a newer message brings it back). */
  archivedBy?: Record<string, { at: string; mark: string }>;
  /** Members who pinned it, and when. */
  pinnedBy?: Record<string, string>;
}

/** A group as the member an admin removed last saw it. */
export interface RemovedDoc {
  by: string;
  at: string;
  name: string;
  members: string[];
  admins: string[];
  pictureKey: string | null;
  updatedAt: string;
  lastActivityId: string;
  disappearingSeconds?: number;
}

export interface NoticeDoc {
  kind: GroupNotice['kind'];
  by: string;
  members: string[];
  name?: string;
  seconds?: number;
  at: string;
}

/** System lines kept per group: the oldest fall off. */
const noticesKept = 100;

const withNotice = (chat: ChatDoc, notice: NoticeDoc): ChatDoc => ({
  ...chat,
  notices: [...(chat.notices ?? []), notice].slice(-noticesKept),
  updatedAt: notice.at,
});

const adminsOf = (chat: ChatDoc) => chat.admins ?? [chat.createdBy];
const without = (ids: readonly string[], id: string) => ids.filter((other) => other !== id);

/** `removed` without the given members (they were added again), and its index field to match. */
const withRemoved = (chat: ChatDoc, removed: Record<string, RemovedDoc>): ChatDoc => {
  const { removed: _before, removedMembers: _index, ...rest } = chat;
  const ids = Object.keys(removed);
  return ids.length ? { ...rest, removed, removedMembers: ids } : rest;
};

/** The viewer's snapshot when an admin removed them from this group. */
export const removedViewOf = (chat: ChatDoc, viewerId: string): RemovedDoc | undefined =>
  chat.members.includes(viewerId) ? undefined : chat.removed?.[viewerId];

export interface ParticipantDoc {
  _id: string;
  username: string;
  pictureKey: string | null;
  /** The users this person blocked (absent: none); never shown, only enforced. */
  blocked?: string[];
}

export type ChatReadModels = {
  chats: Collection<ChatDoc>;
  participants: Collection<ParticipantDoc>;
};

export const openChatReadModels = async (readStore: ReadStore): Promise<ChatReadModels> => ({
  chats: await readStore.collection<ChatDoc>('chat_chats', [
    { fields: { members: 1 } },
    { fields: { removedMembers: 1 } },
    { fields: { pairKey: 1 } },
  ]),
  participants: await readStore.collection<ParticipantDoc>('chat_participants'),
});

export const chatListProjection = (
  models: ChatReadModels,
): ProjectionDefinition<ChatReadModels, 'chat' | 'user' | 'message'> => ({
  name: 'chat_list',
  contexts: ['chat', 'user', 'message'],
  models,
  async handle({ event, position }, { chats, participants }) {
    switch (event.type) {
      case 'DirectChatCreated':
      case 'GroupChatCreated': {
        if (await chats.get(event.data.chatId)) return;
        await chats.put({
          _id: event.data.chatId,
          isGroupChat: event.type === 'GroupChatCreated',
          name: event.type === 'GroupChatCreated' ? event.data.name : '',
          members: [...event.data.members],
          createdBy: event.data.createdBy,
          createdAt: event.occurredAt,
          updatedAt: event.occurredAt,
          lastActivityId: event.data.chatId,
          pairKey: event.type === 'DirectChatCreated' ? pairStreamId(...event.data.members) : null,
          createdPosition: position,
          ...(event.type === 'GroupChatCreated' && {
            admins: [event.data.createdBy],
            notices: [
              {
                kind: 'created',
                by: event.data.createdBy,
                members: [],
                name: event.data.name,
                at: event.occurredAt,
              },
            ],
          }),
        });
        return;
      }
      case 'ChatMembersAdded': {
        const chat = await chats.get(event.data.chatId);
        if (!chat) return;
        const members = [...new Set([...chat.members, ...event.data.members])];
        const notice: NoticeDoc = {
          kind: 'added',
          by: event.data.addedBy,
          members: event.data.members,
          at: event.occurredAt,
        };
        // Someone removed before and added again is a member again, with the live group.
        const removed = Object.fromEntries(
          Object.entries(chat.removed ?? {}).filter(([id]) => !event.data.members.includes(id)),
        );
        await chats.put(withNotice(withRemoved({ ...chat, members }, removed), notice));
        return;
      }
      case 'ChatMemberRemoved': {
        const chat = await chats.get(event.data.chatId);
        if (!chat || !chat.members.includes(event.data.memberId)) return;
        const { memberId, removedBy } = event.data;
        const changed = {
          ...chat,
          members: without(chat.members, memberId),
          admins: without(adminsOf(chat), memberId),
        };
        const noticed = withNotice(changed, {
          kind: 'removed',
          by: removedBy,
          members: [memberId],
          at: event.occurredAt,
        });
        // The removed member keeps the group as it is now, up to and with this notice.
        const snapshot: RemovedDoc = {
          by: removedBy,
          at: event.occurredAt,
          name: noticed.name,
          members: noticed.members,
          admins: adminsOf(noticed),
          pictureKey: noticed.pictureKey ?? null,
          updatedAt: noticed.updatedAt,
          lastActivityId: noticed.lastActivityId,
          ...(noticed.disappearingSeconds && { disappearingSeconds: noticed.disappearingSeconds }),
        };
        await chats.put(withRemoved(noticed, { ...noticed.removed, [memberId]: snapshot }));
        return;
      }
      case 'ChatMemberLeft': {
        const chat = await chats.get(event.data.chatId);
        if (!chat || !chat.members.includes(event.data.memberId)) return;
        const { memberId, newAdmin } = event.data;
        const admins = without(adminsOf(chat), memberId);
        let changed = withNotice(
          {
            ...chat,
            members: without(chat.members, memberId),
            admins: newAdmin ? [...admins, newAdmin] : admins,
          },
          { kind: 'left', by: memberId, members: [memberId], at: event.occurredAt },
        );
        if (newAdmin)
          changed = withNotice(changed, {
            kind: 'promoted',
            by: memberId,
            members: [newAdmin],
            at: event.occurredAt,
          });
        await chats.put(changed);
        return;
      }
      case 'ChatAdminPromoted': {
        const chat = await chats.get(event.data.chatId);
        if (!chat || adminsOf(chat).includes(event.data.memberId)) return;
        const { memberId, promotedBy } = event.data;
        const changed = { ...chat, admins: [...adminsOf(chat), memberId] };
        await chats.put(
          withNotice(changed, {
            kind: 'promoted',
            by: promotedBy,
            members: [memberId],
            at: event.occurredAt,
          }),
        );
        return;
      }
      case 'GroupRenamed': {
        const chat = await chats.get(event.data.chatId);
        if (!chat) return;
        const { name, renamedBy } = event.data;
        await chats.put(
          withNotice(
            { ...chat, name },
            { kind: 'renamed', by: renamedBy, members: [], name, at: event.occurredAt },
          ),
        );
        return;
      }
      case 'GroupPictureChanged': {
        const chat = await chats.get(event.data.chatId);
        if (!chat) return;
        const { pictureKey, changedBy } = event.data;
        const notice: NoticeDoc = { kind: 'picture', by: changedBy, members: [], at: event.occurredAt };
        await chats.put(withNotice({ ...chat, pictureKey }, notice));
        return;
      }
      case 'DisappearingTimerSet': {
        const chat = await chats.get(event.data.chatId);
        if (!chat) return;
        const { seconds, setBy } = event.data;
        const notice: NoticeDoc = { kind: 'timer', by: setBy, members: [], seconds, at: event.occurredAt };
        await chats.put(withNotice({ ...chat, disappearingSeconds: seconds }, notice));
        return;
      }
      case 'MessageSent': {
        // The chat list is ordered by last activity. Replays and redeliveries never move it back.
        const chat = await chats.get(event.data.chatId);
        if (chat && chat.lastActivityId < event.data.messageId) {
          await chats.put({ ...chat, updatedAt: event.occurredAt, lastActivityId: event.data.messageId });
        }
        return;
      }
      case 'UserRegistered':
        await participants.put({
          _id: event.data.userId,
          username: event.data.username,
          pictureKey: event.data.pictureKey,
        });
        return;
      case 'UserRenamed': {
        const user = await participants.get(event.data.userId);
        if (user) await participants.put({ ...user, username: event.data.username });
        return;
      }
      case 'ProfilePictureChanged': {
        const user = await participants.get(event.data.userId);
        if (user) await participants.put({ ...user, pictureKey: event.data.pictureKey });
        return;
      }
      case 'UserRegistrationCancelled':
        await participants.delete(event.data.userId);
        return;
      case 'UserBlocked':
      case 'UserUnblocked': {
        const user = await participants.get(event.data.userId);
        if (user) await participants.put({ ...user, blocked: blockListAfter(user.blocked ?? [], event) });
        return;
      }
      case 'ChatArchiveSet': {
        const { userId, chatId, archived } = event.data;
        const chat = await chats.get(chatId);
        if (!chat) return;
        const { [userId]: _was, ...others } = chat.archivedBy ?? {};
        const mark = { at: event.occurredAt, mark: chat.lastActivityId };
        await chats.put({ ...chat, archivedBy: archived ? { ...others, [userId]: mark } : others });
        return;
      }
      case 'ChatPinSet': {
        const { userId, chatId, pinned } = event.data;
        const chat = await chats.get(chatId);
        if (!chat) return;
        const { [userId]: _was, ...others } = chat.pinnedBy ?? {};
        await chats.put({ ...chat, pinnedBy: pinned ? { ...others, [userId]: event.occurredAt } : others });
        return;
      }
      case 'GroupStateSigned': {
        const chat = await chats.get(event.data.chatId);
        if (!chat) return;
        await chats.put({ ...chat, stateSignedAt: event.occurredAt });
        return;
      }
      case 'DirectPairClaimed':
      case 'UsernameClaimed':
      case 'UsernameReleased':
      case 'MessageSeen':
      case 'MessageEdited':
      case 'MessageDeleted':
      case 'MessageExpired':
      case 'MessageHidden':
      case 'ReactionSet':
      case 'ReactionRemoved':
      case 'MessageKeyRewrapped':
      case 'KeyBackupStored':
      case 'KeysPublished':
      case 'PrivacyChanged':
        return;
      default: {
        // Every event of the contexts followed is named above: a new one must be decided on.
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
});

/**
 * The API shape. For one-to-one chats the first participant is the other person and the chat
 * is named after them: clients rely on both (docs/api.md).
 */
export const toChatView = (
  chat: ChatDoc,
  viewerId: string,
  people: Map<string, ParticipantDoc>,
): ChatView => {
  const removed = removedViewOf(chat, viewerId);
  if (removed) return removedChatView(chat, viewerId, people, removed);
  const ordered = chat.isGroupChat
    ? chat.members
    : [...chat.members.filter((id) => id !== viewerId), ...chat.members.filter((id) => id === viewerId)];
  const personOf = (id: string) => {
    const person = people.get(id);
    return {
      _id: id,
      username: person?.username ?? 'Deleted user',
      profilePicture: mediaUrl(person?.pictureKey ?? null),
    };
  };
  const participants = ordered.map(personOf);
  const archived = chat.archivedBy?.[viewerId];
  const pinnedAt = chat.pinnedBy?.[viewerId];
  return {
    _id: chat._id,
    isGroupChat: chat.isGroupChat,
    chatName: chat.isGroupChat ? chat.name : (participants[0]?.username ?? ''),
    participants,
    createdBy: chat.createdBy,
    createdAt: chat.createdAt,
    updatedAt: chat.updatedAt,
    ...(chat.isGroupChat && {
      admins: adminsOf(chat),
      groupPicture: mediaUrl(chat.pictureKey ?? null),
    }),
    ...((chat.isGroupChat || chat.notices?.length) && {
      notices: (chat.notices ?? []).map(({ kind, by, members, name, seconds, at }) => ({
        kind,
        by: personOf(by),
        members: members.map(personOf),
        ...(name !== undefined && { name }),
        ...(seconds !== undefined && { seconds }),
        at,
      })),
    }),
    ...(chat.disappearingSeconds && { disappearingSeconds: chat.disappearingSeconds }),
    ...(chat.stateSignedAt && { stateSignedAt: chat.stateSignedAt }),
    ...(archived && {
      archivedAt: archived.at,
      // A message since archiving brings it back to the list (a muted chat's browser may keep it).
      archived: chat.lastActivityId <= archived.mark,
    }),
    ...(pinnedAt && { pinnedAt }),
  };
};

/**
 * A group the viewer was removed from, as it was then: its name, members and picture at that
 * moment, and only the system lines up to their removal (what happened since is not theirs).
 */
const removedChatView = (
  chat: ChatDoc,
  viewerId: string,
  people: Map<string, ParticipantDoc>,
  removed: RemovedDoc,
): ChatView => {
  const { by, at, name, members, admins, pictureKey, updatedAt, disappearingSeconds } = removed;
  const asThen: ChatDoc = {
    ...chat,
    name,
    members,
    admins,
    pictureKey,
    updatedAt,
    notices: (chat.notices ?? []).filter((notice) => notice.at <= at),
  };
  delete asThen.removed;
  delete asThen.disappearingSeconds;
  const view = toChatView(
    { ...asThen, ...(disappearingSeconds && { disappearingSeconds }) },
    viewerId,
    people,
  );
  const person = people.get(by);
  return {
    ...view,
    removedFromGroup: {
      by: {
        _id: by,
        username: person?.username ?? 'Deleted user',
        profilePicture: mediaUrl(person?.pictureKey ?? null),
      },
      at,
    },
  };
};

/** Where a chat sorts in the viewer's list: a group they were removed from stays where it was. */
export const activityFor = (chat: ChatDoc, viewerId: string): string =>
  removedViewOf(chat, viewerId)?.lastActivityId ?? chat.lastActivityId;

/** Everyone a chat's view names: its members and the people in its system lines. */
export const peopleNamedIn = (chat: ChatDoc): string[] => [
  ...chat.members,
  ...(chat.notices ?? []).flatMap((notice) => [notice.by, ...notice.members]),
  ...Object.values(chat.removed ?? {}).flatMap((removed) => [removed.by, ...removed.members]),
];
