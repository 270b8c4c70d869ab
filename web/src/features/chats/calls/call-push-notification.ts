import { callPushPayloadSchema } from '@veil/contracts';
import { openCallSignal, type CallMedia } from '@veil/crypto';
import { readAccountKeys, readStoredKeyLog } from '../../keys/worker.ts';
import { readNotificationSettings } from '../../notifications/worker.ts';
import { pushedCallUrl } from './pushed-call-url.ts';

/**
 * A call pushed to this browser while no tab of the account was open (docs/calls.md, "Ringing
 * through Web Push"), worked out in the service worker. The push carries one of the caller's
 * signals as the gateway relayed it; it is checked as a page checks a signal (`openCallSignal`:
 * the signature against the caller's signing key at the head of their key log as a page of this
 * account last checked and stored it, sealed for this account, naming the signed routing, made
 * within two minutes). Only a signal that holds, from the caller to this account, rings; nothing
 * the server says alone (the caller's name aside, as in message pushes) makes one.
 */
export interface CallPushNotification {
  /** The caller's name as the server gave it (their id when it gave none). */
  callerName: string;
  /** Where clicking it leads: the chat, with the call the opened tab rings for. */
  url: string;
  media: CallMedia;
  callId: string;
}

/**
 * Signals a caller sends before anyone answered: each says a call is being placed (the offer
 * itself rarely fits in a push; its candidates do). A group call's are left out: the tab opened
 * would have no way to join it yet (docs/calls.md, "Not yet").
 */
const ringingKinds = new Set(['offer', 'ice']);

/** Whether `data` is a call push at all: the worker's other pushes are messages. */
export const isCallPush = (data: unknown): boolean =>
  typeof data === 'object' && data !== null && (data as { kind?: unknown }).kind === 'call';

export const callNotificationForPush = async (
  data: unknown,
  now = Date.now(),
): Promise<CallPushNotification | null> => {
  const parsed = callPushPayloadSchema.safeParse(data);
  if (!parsed.success) return null;
  const { userId, chatId, callId, caller, signal } = parsed.data;
  // Notifications off in this browser: a call rings only in an open tab, as before.
  if (!(await readNotificationSettings(userId)).enabled) return null;
  const log = await readStoredKeyLog(userId, caller._id);
  const opening = await openCallSignal({
    routing: { from: caller._id, to: userId, chatId, callId },
    sealed: signal,
    senderSigningKey: log?.at(-1)?.signingKey ?? null,
    readerId: userId,
    privateKeys: (await readAccountKeys(userId)).map((key) => key.privateKey),
    now,
  });
  if (!opening.ok || opening.body.group || !ringingKinds.has(opening.body.kind)) return null;
  const { media } = opening.body;
  return {
    callerName: caller.username ?? caller._id,
    url: pushedCallUrl({ chatId, callId, callerId: caller._id, media }),
    media,
    callId,
  };
};
