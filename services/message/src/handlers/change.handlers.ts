import { messageStreamId, type EventData, type MessageView, type messageRpc } from '@veil/contracts';
import { newEvent, type RpcImplementation, type RunningProjection } from '@veil/kernel';
import type { MessageTimeline, Ports } from '@veil/ports';
import {
  decideDeleteForEveryone,
  decideEdit,
  decideHide,
  decideReaction,
  type ChangeState,
} from '../domain/change.decider.ts';
import type { MessageDoc, MessageReadModels } from '../projections/timeline.projection.ts';
import type { ownWrites } from './own-writes.ts';

type ChangeOperations = Pick<RpcImplementation<typeof messageRpc.operations>, 'edit' | 'remove' | 'react'>;

export interface ChangeDeps extends Pick<Ports, 'clock' | 'ids'> {
  store: Ports['bus'];
  models: MessageReadModels;
  messages: MessageTimeline;
  projection: RunningProjection;
  written: ReturnType<typeof ownWrites>;
  membersOf(chatId: string): Promise<readonly string[] | null>;
  /** The API view of stored messages, with what they reply to. */
  viewsOf(docs: MessageDoc[]): Promise<MessageView[]>;
}

type ChangeEventType =
  'MessageEdited' | 'MessageDeleted' | 'MessageHidden' | 'ReactionSet' | 'ReactionRemoved';

/**
 * Changes to a stored message: edit, delete (for everyone or for me) and reactions. Each reads
 * what its decider needs, decides without I/O (`domain/change.decider.ts`) and appends the
 * event to the message's own stream. Edits and deletions answer once the timeline has applied
 * them (a deletion's content is erased from the log by then); reactions and hiding answer
 * from the append, and the caller's next read waits for them.
 */
export const changeHandlers = (deps: ChangeDeps): ChangeOperations => {
  const { store, messages, projection, written } = deps;

  const stateOf = async (userId: string, messageId: string): Promise<ChangeState> => {
    await written.applied(userId);
    const doc = await projection.readFresh('message', () => messages.get(messageId), Boolean);
    return {
      message: doc && {
        chat: doc.chat,
        sender: doc.sender,
        createdAt: doc.createdAt,
        seq: doc.seq,
        deleted: doc.deleted ?? false,
        reactedBy: Object.keys(doc.reactions ?? {}),
        hiddenFor: doc.hiddenFor ?? [],
        ...(doc.attachments && { attachments: doc.attachments }),
        ...(doc.expiresAt && { expiresAt: doc.expiresAt }),
      },
      members: doc ? await deps.membersOf(doc.chat) : null,
      now: deps.clock.now(),
    };
  };

  /** Appends to the message's stream; the caller's next read waits for it. */
  const append = async <T extends ChangeEventType>(userId: string, type: T, data: EventData<T>) => {
    const { position } = await store.append(
      'message',
      newEvent(deps, type, messageStreamId(data.messageId), data),
    );
    written.wrote(userId, position);
    return position;
  };

  return {
    async edit(command) {
      const data = decideEdit(command, await stateOf(command.userId, command.messageId));
      await projection.waitFor('message', await append(command.userId, 'MessageEdited', data));
      const [message] = await deps.viewsOf([(await messages.get(data.messageId))!]);
      return { message: message! };
    },

    async remove({ userId, messageId, scope, signature }) {
      const state = await stateOf(userId, messageId);
      if (scope === 'me') {
        const data = decideHide({ userId, messageId }, state);
        if (data) await append(userId, 'MessageHidden', data);
        return { chatId: state.message!.chat, messageId };
      }
      const data = decideDeleteForEveryone({ userId, messageId, signature }, state);
      // Answered once applied: by then the message's content is erased from the log too.
      if (data) await projection.waitFor('message', await append(userId, 'MessageDeleted', data));
      return { chatId: state.message!.chat, messageId };
    },

    async react({ userId, messageId, reaction, removalSignature }) {
      const state = await stateOf(userId, messageId);
      const data = decideReaction({ userId, messageId, reaction, removalSignature }, state);
      if (data && 'content' in data) await append(userId, 'ReactionSet', data);
      else if (data) await append(userId, 'ReactionRemoved', data);
      return { chatId: state.message!.chat, messageId };
    },
  };
};
