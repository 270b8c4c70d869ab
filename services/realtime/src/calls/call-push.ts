import { callPushFits, type CallSignalRequest, type messageRpc } from '@veil/contracts';
import type { RpcClient } from '@veil/kernel';
import type { ExpiringRecords, Logger, PresenceStore } from '@veil/ports';

/** Longer than any call rings (45 s): one push per call, however many signals follow. */
export const callPushClaimTtlMs = 2 * 60_000;

export interface CallPusher {
  /**
   * After a signal was relayed: when its callee has no socket on any replica, asks the message
   * service to push it to their browsers, once per call (the first signal that fits in a push).
   * True when this signal was pushed, so the caller can be told.
   */
  relayed(request: CallSignalRequest, from: string): Promise<boolean>;
}

/**
 * Rings a callee who has no tab open through Web Push (docs/calls.md, "Ringing through Web
 * Push"). Presence says whether they have a socket anywhere; a claim per call and callee, shared
 * by the replicas (`records`: Redis in a cluster), keeps it to one push however many replicas
 * relay the call's signals.
 */
export const createCallPusher = (deps: {
  presence: Pick<PresenceStore, 'onlineAmong'>;
  claims: Pick<ExpiringRecords, 'create'>;
  messages: Pick<RpcClient<typeof messageRpc.operations>, 'pushCall'>;
  log: Logger;
}): CallPusher => ({
  async relayed(request, from) {
    const { chatId, to, callId, signal } = request;
    // An offer with its session description rarely fits; the candidates after it do.
    if (!callPushFits({ kind: 'call', userId: to, chatId, callId, caller: { _id: from }, signal }))
      return false;
    if ((await deps.presence.onlineAmong([to])).length > 0) return false;
    if (!(await deps.claims.create(`${callId}:${to}`, from, callPushClaimTtlMs))) return false;
    try {
      return (await deps.messages.pushCall({ chatId, from, to, callId, signal })).pushed;
    } catch (err) {
      deps.log.warn({ err, callId }, 'call push failed');
      return false;
    }
  },
});
