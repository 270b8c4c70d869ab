import type { z } from 'zod';
import type {
  editMessageBodySchema,
  MessageSignature,
  reactionBodySchema,
  SealedReaction,
} from './schemas.ts';

/** What every send carries beside its key map, whichever way it arrives (HTTP or socket). */
interface SendBody {
  encryptedMessage: string;
  iv: string;
  replyTo?: string | null | undefined;
  clientMessageId?: string | undefined;
  attachments?: string[] | undefined;
  signature?: MessageSignature | undefined;
}

/**
 * A send as the message service's `send` command takes it: the one mapping the HTTP routes
 * (one-to-one and group) and the socket's `send message` share, so a field added to a body
 * reaches the service every way. The sender is the token's user, never the body's.
 */
export const sendCommandOf = (
  userId: string,
  chatId: string,
  encryptedKeys: Record<string, string>,
  { encryptedMessage, iv, replyTo, clientMessageId, attachments, signature }: SendBody,
) => ({
  userId,
  chatId,
  content: encryptedMessage,
  iv,
  encryptedKeys,
  replyTo: replyTo ?? null,
  ...(clientMessageId && { clientMessageId }),
  ...(attachments?.length && { attachments }),
  ...(signature && { signature }),
});

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
