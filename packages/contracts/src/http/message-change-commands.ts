import type { z } from 'zod';
import type { editMessageBodySchema, reactionBodySchema, SealedReaction } from './schemas.ts';

/**
 * A change's body as the message service's command takes it. The HTTP routes and the socket
 * handlers both map through these, so a field added to a body reaches the service either way.
 */
export const editCommandOf = ({
  encryptedMessage,
  iv,
  encryptedKeys,
  ...rest
}: z.infer<typeof editMessageBodySchema>) => ({ content: encryptedMessage, iv, encryptedKeys, ...rest });

export const reactionOf = ({
  encryptedReaction,
  iv,
  encryptedKeys,
  ...rest
}: z.infer<typeof reactionBodySchema>): SealedReaction => ({
  content: encryptedReaction,
  iv,
  encryptedKeys,
  ...rest,
});
