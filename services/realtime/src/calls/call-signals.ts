import { callSignalRequestSchema, DomainError, parseWith } from '@veil/contracts';
import type { Logger, RateLimit } from '@veil/ports';
import { answerRequest, asAck } from '../acks.ts';
import type { MembershipProjection } from '../membership.projection.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { CallPusher } from './call-push.ts';
import { userRoom, type RealtimeServer, type RealtimeSocket } from '../socket-types.ts';
import { spendWrite } from '../write-budget.ts';

export interface CallSignalDeps {
  io: RealtimeServer;
  socket: RealtimeSocket;
  membership: Pick<MembershipProjection, 'lookupChat'>;
  /** This socket's bucket: a burst of ICE candidates passes, a flood is cut at once. */
  limiter: RateLimiter;
  /** The user's budget over all their sockets and every replica (`callSignalBudget`). */
  budget: RateLimit;
  /** Rings a callee with no socket anywhere through Web Push. */
  pusher: CallPusher;
  now: () => number;
  log: Logger;
}

/** A chat the caller is not in reads as no chat at all, as for message sends (docs/decisions.md). */
const chatNotFound = () => new DomainError('CHAT_NOT_FOUND', 'Chat not found');

/**
 * `call signal`: a sealed, signed signal for another member of a chat the sender is in, relayed
 * to every browser of that member and to the sender's other browsers (so they can stop ringing
 * when the call is answered elsewhere). Through the adapter, it reaches them on any replica.
 * The gateway cannot read or change what it relays without the browsers noticing: the signal is
 * sealed and signed end to end (docs/calls.md); it checks who may reach whom, and how often.
 */
export const registerCallSignals = (deps: CallSignalDeps): void => {
  const { io, socket, membership, limiter, budget, pusher, now, log } = deps;
  const userId = socket.data.userId;

  socket.on('call signal', (payload, rawAck) =>
    answerRequest(socket, rawAck, log, async () => {
      if (!asAck(rawAck))
        throw new DomainError('VALIDATION_FAILED', 'call signal needs an acknowledgement callback');
      if (!limiter.take(now())) throw new DomainError('RATE_LIMITED', 'Too many call signals; slow down');
      // Spent before validation: a flood of bad payloads costs its sender too.
      await spendWrite(budget, userId, log);
      const request = parseWith(callSignalRequestSchema, payload);
      if (request.to === userId)
        throw new DomainError('VALIDATION_FAILED', 'A call signal goes to another member');
      const chat = await membership.lookupChat(request.chatId);
      if (!chat?.members.has(userId)) throw chatNotFound();
      if (!chat.members.has(request.to))
        throw new DomainError('NOT_A_MEMBER', 'The person called is not a member of this chat');
      io.to([userRoom(request.to), userRoom(userId)])
        .except(socket.id)
        .emit('call signal', { ...request, from: userId });
      // Pushed only what was relayed; the ack does not wait for the push service.
      void pusher.relayed(request, userId).then((pushed) => {
        if (pushed)
          socket.emit('call pushed', { chatId: request.chatId, to: request.to, callId: request.callId });
      });
      return undefined;
    }),
  );
};
