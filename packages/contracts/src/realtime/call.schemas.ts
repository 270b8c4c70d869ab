import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import { base64OfBytes, isPaddedBase64 } from '../http/schemas.ts';
import { limits } from '../limits.ts';

/**
 * Call signalling (docs/calls.md): offers, answers, ICE candidates and call control travel
 * between the parties' browsers over the realtime gateway, sealed and signed end to end. The
 * gateway sees who calls whom in which chat and the call's id; it checks membership, shapes and
 * sizes, and relays what it cannot read.
 */

/** 128 random bits chosen by the caller's browser, as 32 lowercase hex characters. */
export const callIdSchema = z
  .string({ error: 'callId is required' })
  .regex(/^[0-9a-f]{32}$/, 'callId must be 32 hexadecimal characters');

const base64Up = (max: number, what: string) =>
  z
    .string({ error: `${what} is required` })
    .min(1, `${what} is required`)
    .max(max, `${what} is too large`)
    .refine(isPaddedBase64, `${what} must be base64`);

/**
 * One signal as the parties' browsers seal it: AES-GCM ciphertext of the signal, the message key
 * wrapped for each party's account (the two people of the call), and the sender's ECDSA P-256
 * signature (64 bytes) over all of it and its routing (`@veil/crypto` call-signal.ts).
 */
export const sealedCallSignalSchema = z.strictObject({
  ciphertext: base64Up(limits.callSignalCiphertextMaxChars, 'ciphertext'),
  iv: base64OfBytes(12, 'iv'),
  encryptedKeys: z
    .record(idSchema, base64Up(limits.wrappedKeyMaxChars, 'encryptedKeys entry'), {
      error: 'encryptedKeys is required',
    })
    .refine((keys) => {
      const count = Object.keys(keys).length;
      return count >= 1 && count <= 2;
    }, 'encryptedKeys must name the two parties of the call'),
  signature: base64OfBytes(64, 'signature'),
});
export type SealedCallSignal = z.infer<typeof sealedCallSignalSchema>;

/** `call signal` from a browser: for `to`, a member of the chat the call is in. */
export const callSignalRequestSchema = z.strictObject({
  chatId: idSchema,
  to: idSchema,
  callId: callIdSchema,
  signal: sealedCallSignalSchema,
});
export type CallSignalRequest = z.infer<typeof callSignalRequestSchema>;

/** `call signal` to a browser: the request as sent, with its sender as the token named it. */
export interface CallSignalDelivery extends CallSignalRequest {
  from: string;
}

/** `call pushed` to the caller's browser: which call's callee was rung through Web Push. */
export interface CallPushedNotice {
  chatId: string;
  to: string;
  callId: string;
}
