import { z } from 'zod';
import { base64OfBytes } from '../http/schemas.ts';
import { limits } from '../limits.ts';

/**
 * Linking a new browser from a logged-in one: a rendezvous on the realtime gateway that relays
 * a few opaque messages between two sockets of one user (docs/crypto.md, "Linking a browser").
 * The gateway only checks shapes and sizes; what the messages mean is the browsers' business.
 */

/** 128 random bits, as 32 lowercase hex characters. */
export const linkIdSchema = z
  .string({ error: 'linkId is required' })
  .regex(/^[0-9a-f]{32}$/, 'linkId must be 32 hexadecimal characters');

/** `link open`: the new browser's commitment to its one-time public key (a SHA-256 hash). */
export const linkOpenSchema = z.strictObject({ commitment: base64OfBytes(32, 'commitment') });

/** `link join` and `link close`: which link. */
export const linkRefSchema = z.strictObject({ linkId: linkIdSchema });

/** `link relay`: one opaque message for the other browser. */
export const linkRelaySchema = z.strictObject({
  linkId: linkIdSchema,
  data: z
    .string({ error: 'data is required' })
    .min(1, 'data is required')
    .max(limits.linkMessageMaxChars, `data must be at most ${limits.linkMessageMaxChars} characters`),
});

export type LinkOpenRequest = z.infer<typeof linkOpenSchema>;
export type LinkRef = z.infer<typeof linkRefSchema>;
export type LinkRelayRequest = z.infer<typeof linkRelaySchema>;

export interface LinkOpened {
  linkId: string;
  /** ISO time after which the link refuses everything. */
  expiresAt: string;
}

export interface LinkJoined {
  commitment: string;
  expiresAt: string;
}

/** Why the other browser's end of a link went away. */
export type LinkClosedReason = 'cancelled' | 'left';
