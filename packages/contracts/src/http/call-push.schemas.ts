import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { limits } from '../limits.ts';
import { callIdSchema, sealedCallSignalSchema } from '../realtime/call.schemas.ts';

/**
 * The most a push may carry: a Web Push record is 4096 bytes, of which encryption takes 103
 * (header, tag, padding delimiter); some push services take less, so this keeps a margin.
 */
export const pushPayloadMaxBytes = 3800;

/**
 * A call pushed to a callee with no browser connected (docs/calls.md, "Ringing through Web
 * Push"): one signal of the call exactly as the gateway relayed it, sealed and signed by the
 * caller. The service worker checks it as a page would (signature against the caller's checked
 * key log, the routing, the time) and shows nothing when it does not hold. `caller.username` is
 * the server's word, as in message pushes: it names the caller, it proves nothing.
 */
export const callPushPayloadSchema = z.object({
  kind: z.literal('call'),
  /** The callee: whose keys open the signal. */
  userId: idSchema,
  chatId: idSchema,
  callId: callIdSchema,
  caller: z.object({ _id: idSchema, username: z.string().nullable() }),
  signal: sealedCallSignalSchema,
});
export type CallPushPayload = z.infer<typeof callPushPayloadSchema>;

/** Room left for the caller's name, whatever it is: the fit is decided before it is looked up. */
const usernameRoomBytes = limits.usernameMax * 4 + 2;

/**
 * Whether a push for this signal fits in one Web Push record. A call's offer, with its session
 * description, usually does not; the candidates and control signals after it do, so the first
 * signal of a call that fits is the one pushed.
 */
export const callPushFits = (
  payload: Omit<CallPushPayload, 'caller'> & { caller: { _id: string } },
): boolean =>
  new TextEncoder().encode(JSON.stringify({ ...payload, caller: { ...payload.caller, username: null } }))
    .length +
    usernameRoomBytes <=
  pushPayloadMaxBytes;
