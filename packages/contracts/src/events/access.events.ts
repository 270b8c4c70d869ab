import { z } from 'zod';
import { defineEvent, idSchema } from './event.ts';

/**
 * The access context, owned by the auth service and read by both gateways. Stream
 * `sess-<sessionId>`, where a session is one refresh-token family and every access token minted
 * from it carries its id (`sid`). Kept apart from the auth context so the gateways never read
 * password hashes.
 */
export const SessionRevoked = defineEvent(
  'SessionRevoked',
  z.object({
    userId: idSchema,
    sessionId: idSchema,
    reason: z.enum(['reuse', 'logout', 'password-change', 'suspension']),
  }),
);

export const accessEventSchema = z.discriminatedUnion('type', [SessionRevoked]);
export type AccessEvent = z.infer<typeof accessEventSchema>;

export const sessionStreamId = (sessionId: string) => `sess-${sessionId}`;
