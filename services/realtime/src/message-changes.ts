import {
  DomainError,
  editCommandOf,
  parseWith,
  reactionOf,
  socketDeleteSchema,
  socketEditSchema,
  socketReactSchema,
  socketUnreactSchema,
  type messageRpc,
} from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { Logger, RateLimit, Tracing } from '@veil/ports';
import { answerRequest, asAck } from './acks.ts';
import type { RealtimeSocket } from './socket-types.ts';
import { spendWrite } from './write-budget.ts';

type MessageClient = Pick<RpcClient<typeof messageRpc.operations>, 'edit' | 'remove' | 'react'>;

export interface MessageChangesDeps {
  socket: RealtimeSocket;
  messages: MessageClient;
  /** The per-user write budget the HTTP write routes spend from. */
  writes: RateLimit;
  log: Logger;
  tracing: Pick<Tracing, 'run'>;
}

type ChangeEvent = 'edit message' | 'delete message' | 'react to message' | 'remove reaction';

/**
 * Edits, deletions and reactions over the socket: the commands the HTTP routes call
 * (`message.edit`, `remove`, `react`), with the same body schemas, the same write budget and the
 * same error codes; the user is the token's. The service checks the sender, the time limit,
 * membership and the key map; the change then reaches every member through the fan-out of its
 * event, exactly as after an HTTP change. Like `send message`, a change needs an ack.
 */
export const registerMessageChanges = (deps: MessageChangesDeps): void => {
  const { socket, messages, writes, log, tracing } = deps;
  const userId = socket.data.userId;

  /** Answers one change: its ack is required, its write is spent, then `work` runs. */
  const answer = (event: ChangeEvent, rawAck: unknown, work: () => Promise<unknown>) =>
    tracing.run(undefined, () =>
      answerRequest(socket, rawAck, log, async () => {
        if (!asAck(rawAck))
          throw new DomainError('VALIDATION_FAILED', `${event} needs an acknowledgement callback`);
        // Spent before validation, as an HTTP write is: a flood of bad payloads costs its sender too.
        await spendWrite(writes, userId, log);
        return work();
      }),
    );

  socket.on('edit message', (payload, ack) =>
    answer('edit message', ack, () => {
      const { messageId, ...body } = parseWith(socketEditSchema, payload);
      return messages.edit({ userId, messageId, ...editCommandOf(body) });
    }),
  );
  socket.on('delete message', (payload, ack) =>
    answer('delete message', ack, () => {
      const { messageId, for: scope, signature } = parseWith(socketDeleteSchema, payload);
      return messages.remove({
        userId,
        messageId,
        scope,
        ...(signature && scope === 'everyone' && { signature }),
      });
    }),
  );
  socket.on('react to message', (payload, ack) =>
    answer('react to message', ack, () => {
      const { messageId, ...body } = parseWith(socketReactSchema, payload);
      return messages.react({ userId, messageId, reaction: reactionOf(body) });
    }),
  );
  socket.on('remove reaction', (payload, ack) =>
    answer('remove reaction', ack, () => {
      const { messageId, signature } = parseWith(socketUnreactSchema, payload);
      return messages.react({
        userId,
        messageId,
        reaction: null,
        ...(signature && { removalSignature: signature }),
      });
    }),
  );
};
