import { DomainError, chatPrefsStreamId, chatStreamId, pairStreamId, type chatRpc } from '@veil/contracts';
import {
  appendDecided,
  loadAggregate,
  newEvent,
  withRetry,
  type RpcImplementation,
  type RunningProjection,
} from '@veil/kernel';
import type { Ports } from '@veil/ports';
import { checkMayReach } from '../domain/blocks.ts';
import { chatPrefsDecider } from '../domain/chat-prefs.decider.ts';
import { groupDecider } from '../domain/group.decider.ts';
import { ensureDirectChat } from './direct-pair.ts';
import { groupChangeEntry } from './group-change-entries.ts';
import {
  checkGroupChangeSignature,
  checkSignedCreation,
  checkSignedSnapshot,
} from './signed-group-change.ts';
import {
  activityFor,
  peopleNamedIn,
  removedViewOf,
  toChatView,
  type ChatDoc,
  type ChatReadModels,
  type ParticipantDoc,
} from '../projections/chat-list.projection.ts';

type Deps = Pick<Ports, 'clock' | 'ids'> & {
  store: Ports['bus'];
  models: ChatReadModels;
  projection: RunningProjection;
};

export const chatRpcHandlers = (deps: Deps): RpcImplementation<typeof chatRpc.operations> => {
  const { store, models, projection } = deps;

  const peopleOf = async (chats: ChatDoc[]): Promise<Map<string, ParticipantDoc>> => {
    const ids = [...new Set(chats.flatMap(peopleNamedIn))];
    return new Map((await models.participants.getMany(ids)).map((p) => [p._id, p]));
  };

  const viewFor = async (chat: ChatDoc, viewerId: string) =>
    toChatView(chat, viewerId, await peopleOf([chat]));

  /** Users registered a moment ago may not be in this service's copy yet: catch up before saying "unknown". */
  const requireUsers = async (userIds: string[]) => {
    const found = await projection.readFresh(
      'user',
      () => models.participants.getMany(userIds),
      (people) => people.length === userIds.length,
    );
    const known = new Set(found.map((p) => p._id));
    const unknown = userIds.find((id) => !known.has(id));
    if (unknown) throw new DomainError('USER_NOT_FOUND', `Unknown user: ${unknown}`);
  };

  /** Refuses when the caller and any of `others` blocked one another (as this service has applied). */
  const checkBlocks = async (userId: string, others: readonly string[]) => {
    const people = await models.participants.getMany([userId, ...others]);
    const caller = people.find((person) => person._id === userId);
    if (caller) checkMayReach(caller, people);
  };

  const requireChat = async (chatId: string): Promise<ChatDoc> => {
    const chat = await projection.readFresh('chat', () => models.chats.get(chatId), Boolean);
    if (!chat) throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
    return chat;
  };

  return {
    async listForUser({ userId }) {
      // Every message and rename in the logs now counts: the caller may have just been told of it.
      await projection.upToDate();
      const [current, removedFrom] = await Promise.all([
        models.chats.find({ members: userId }, { sort: { lastActivityId: -1 } }),
        models.chats.find({ removedMembers: userId }),
      ]);
      // Groups the user was removed from stay in the list, where they were at the removal.
      const chats = removedFrom.length
        ? [...current, ...removedFrom.filter((chat) => !chat.members.includes(userId))].sort((a, b) =>
            activityFor(b, userId).localeCompare(activityFor(a, userId)),
          )
        : current;
      const people = await peopleOf(chats);
      return { chats: chats.map((chat) => toChatView(chat, userId, people)) };
    },

    async getForUser({ userId, chatId }) {
      await projection.upToDate();
      const chat = await requireChat(chatId);
      // Not yours answers as "not found": chat ids cannot be probed for existence.
      // A member an admin removed still sees the group as it was then (read-only).
      if (!chat.members.includes(userId) && !removedViewOf(chat, userId))
        throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
      return { chat: await viewFor(chat, userId) };
    },

    async createGroup({ userId, name, memberIds, signedChange }) {
      // Signed, the group takes the id its creator signed; a taken id is refused (409).
      const chatId = signedChange?.groupId ?? deps.ids.next();
      const { state, version } = await loadAggregate(store, groupDecider, chatStreamId(chatId));
      const command = { type: 'CreateGroup', userId, chatId, name, memberIds, signedChange } as const;
      const [created] = groupDecider.decide(command, state);
      if (created?.type !== 'GroupChatCreated') throw new Error('A group creation decides its creation');
      await requireUsers(created.data.members);
      await checkBlocks(userId, created.data.members);
      if (signedChange) {
        const caller = { userId, now: deps.clock.now().getTime() };
        await checkSignedCreation(caller, created.data, signedChange);
      }
      const [position] = await appendDecided(deps, 'chat', chatStreamId(chatId), [created], version);
      await projection.waitFor('chat', position!);
      return { chat: await viewFor(await requireChat(chatId), userId), position: position! };
    },

    async changeGroup({ userId, chatId, change, signedChange }) {
      if (change.kind === 'add') {
        await requireUsers([...new Set(change.memberIds)]);
        await checkBlocks(userId, change.memberIds);
      }
      const before = await models.chats.get(chatId);
      // Decided on the chat's own stream and appended with its version: of two admins changing
      // the group at once, the second decides again on what the first did.
      const position = await withRetry(async () => {
        const { state, version } = await loadAggregate(store, groupDecider, chatStreamId(chatId));
        const command = { type: 'ChangeGroup', userId, chatId, change, signedChange } as const;
        const [decision] = groupDecider.decide(command, state);
        if (!decision) return null;
        const caller = { userId, chatId, now: deps.clock.now().getTime() };
        await checkGroupChangeSignature(caller, state, decision, signedChange);
        return (await appendDecided(deps, 'chat', chatStreamId(chatId), [decision], version))[0]!;
      });
      if (position) await projection.waitFor('chat', position);
      const chat = await requireChat(chatId);
      const replaced = change.kind === 'picture' && position ? before?.pictureKey : null;
      return {
        chat: chat.members.includes(userId) ? await viewFor(chat, userId) : null,
        position: position ?? chat.createdPosition,
        ...(replaced && { replacedPictureKey: replaced }),
      };
    },

    async groupChanges({ userId, chatId }) {
      const { events } = await store.readStream('chat', chatStreamId(chatId));
      const state = events.reduce(
        (folded, { event }) => groupDecider.evolve(folded, event),
        groupDecider.initialState(),
      );
      if (!state.exists || !state.members.includes(userId))
        throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
      const changes = events.flatMap(({ event }) => groupChangeEntry(event) ?? []);
      return { changes };
    },

    async signGroupState({ userId, chatId, signedChange }) {
      const position = await withRetry(async () => {
        const { state, version } = await loadAggregate(store, groupDecider, chatStreamId(chatId));
        if (!state.exists || !state.members.includes(userId))
          throw new DomainError('CHAT_NOT_FOUND', 'Chat not found');
        await checkSignedSnapshot({ userId, chatId, now: deps.clock.now().getTime() }, state, signedChange);
        const event = newEvent(deps, 'GroupStateSigned', chatStreamId(chatId), { chatId, signedChange });
        return (await store.append('chat', event, { expectedVersion: version })).position;
      });
      await projection.waitFor('chat', position);
      return { position };
    },

    async setChatPrefs({ userId, chatId, archived, pinned }) {
      const streamId = chatPrefsStreamId(userId);
      const changes = [
        ...(archived === undefined ? [] : [{ type: 'SetArchived', archived } as const]),
        ...(pinned === undefined ? [] : [{ type: 'SetPinned', pinned } as const]),
      ];
      let position = 0;
      for (const change of changes) {
        position = await withRetry(async () => {
          const mine = await models.chats.find({ members: userId });
          const memberChats = new Set(mine.map((chat) => chat._id));
          const { state, version } = await loadAggregate(store, chatPrefsDecider, streamId);
          const decided = chatPrefsDecider.decide({ ...change, userId, chatId, memberChats }, state);
          return (await appendDecided(deps, 'chat', streamId, decided, version)).at(-1) ?? position;
        });
      }
      if (position) await projection.waitFor('chat', position);
      return { chat: await viewFor(await requireChat(chatId), userId) };
    },

    async userApplied({ position }) {
      await projection.waitFor('user', position);
      return {};
    },

    async ensureDirect({ userId, otherUserId }) {
      if (userId === otherUserId)
        throw new DomainError('VALIDATION_FAILED', 'You cannot start a chat with yourself');
      // Hot path: the pair already has its chat, known to this service's read model. An existing
      // chat is still theirs to open after a block (its history, "unblock to send"); sends are refused.
      const [known] = await models.chats.find({ pairKey: pairStreamId(userId, otherUserId) }, { limit: 1 });
      if (known)
        return { chat: await viewFor(known, userId), position: known.createdPosition, created: false };
      await requireUsers([userId, otherUserId]);
      await checkBlocks(userId, [otherUserId]);
      const { chatId, position, created } = await ensureDirectChat(deps, userId, otherUserId);
      await projection.waitFor('chat', position);
      return { chat: await viewFor(await requireChat(chatId), userId), position, created };
    },
  };
};
