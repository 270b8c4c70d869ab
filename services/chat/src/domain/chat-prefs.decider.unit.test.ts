import { describe, expect, it } from 'vitest';
import { chatPrefsStreamId, limits, type ChatEvent } from '@veil/contracts';
import { chatPrefsDecider, type ChatPrefsCommand, type ChatPrefsState } from './chat-prefs.decider.ts';

const chats = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7'];
const memberChats = new Set(chats);
const none = chatPrefsDecider.initialState();
type Asked = { type: ChatPrefsCommand['type']; chatId?: string; archived?: boolean; pinned?: boolean };
const decide = (command: Asked & { memberChats?: ReadonlySet<string> }, state: ChatPrefsState) =>
  chatPrefsDecider.decide(
    {
      userId: 'alice',
      chatId: 'c1',
      memberChats,
      archived: true,
      pinned: true,
      ...command,
    } as unknown as ChatPrefsCommand,
    state,
  );
const apply = (state: ChatPrefsState, decided: ReturnType<typeof decide>) =>
  decided.reduce(
    (folded, { type, data }) =>
      chatPrefsDecider.evolve(folded, {
        eventId: 'e',
        schemaVersion: 1,
        streamId: chatPrefsStreamId('alice'),
        occurredAt: '2026-01-01T00:00:00.000Z',
        type,
        data,
      } as ChatEvent),
    state,
  );

describe('deciding how an account keeps its chats', () => {
  it('archives and brings back a chat, once each', () => {
    const archived = apply(none, decide({ type: 'SetArchived', archived: true }, none));
    expect(archived.archived).toEqual(['c1']);
    expect(decide({ type: 'SetArchived', archived: true }, archived)).toEqual([]);
    expect(decide({ type: 'SetArchived', archived: false }, archived)).toEqual([
      { type: 'ChatArchiveSet', data: { userId: 'alice', chatId: 'c1', archived: false } },
    ]);
  });

  it('pins up to the limit, counting only chats one is still in, and refuses the next', () => {
    let state = none;
    for (const chatId of chats.slice(0, limits.pinnedChatsMax))
      state = apply(state, decide({ type: 'SetPinned', chatId, pinned: true }, state));
    expect(state.pinned).toHaveLength(limits.pinnedChatsMax);
    expect(() => decide({ type: 'SetPinned', chatId: 'c6', pinned: true }, state)).toThrow(
      expect.objectContaining({
        code: 'PIN_LIMIT_REACHED',
        message: 'You can pin up to 5 chats. Unpin one first.',
      }),
    );
    // Having left one of them frees its place.
    const leftOne = new Set(chats.filter((id) => id !== 'c1'));
    expect(
      decide({ type: 'SetPinned', chatId: 'c6', pinned: true, memberChats: leftOne }, state),
    ).toHaveLength(1);
    // Unpinning always works.
    expect(decide({ type: 'SetPinned', chatId: 'c2', pinned: false }, state)).toEqual([
      { type: 'ChatPinSet', data: { userId: 'alice', chatId: 'c2', pinned: false } },
    ]);
  });

  it('unpins a chat it archives, and brings back an archived chat it pins', () => {
    const pinned = apply(none, decide({ type: 'SetPinned', pinned: true }, none));
    const archived = apply(pinned, decide({ type: 'SetArchived', archived: true }, pinned));
    expect(archived).toEqual({ archived: ['c1'], pinned: [] });
    expect(apply(archived, decide({ type: 'SetPinned', pinned: true }, archived))).toEqual({
      archived: [],
      pinned: ['c1'],
    });
  });

  it('answers a chat one is not in as not found', () => {
    expect(() => decide({ type: 'SetPinned', chatId: 'elsewhere' }, none)).toThrow(
      expect.objectContaining({ code: 'CHAT_NOT_FOUND' }),
    );
  });
});
