import type { CallSignalDelivery } from '@veil/contracts';
import { openCallSignal, sealCallSignal, type CallSignalBody, type CallSignalOpening } from '@veil/crypto';
import { accountKeys, checkedEncryptionKeys, checkedKeysOf, currentSigningKey } from '../../keys/index.ts';
import { getSocket } from '../../../lib/realtime.ts';

/**
 * Call signals between this browser and the other party, sealed and signed as messages are:
 * sealed for both accounts with the keys of their checked key logs (`checked-keys.ts`), signed
 * with the account's signing key (`message-signing.ts`), and checked on arrival against the
 * sender's signing key as their checked key log names it now. Nothing here trusts the server.
 */

/** Why a signal could not be sent: no connection, a refusal by the server, or keys that do not check. */
export class CallSignalError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'CallSignalError';
    this.code = code;
  }
}

const ackTimeoutMs = 10_000;

type AckReply = { ok: true } | { ok: false; error: { code: string; message: string } };

/** Seals, signs and sends one signal; resolves once the gateway has taken it. */
export const sendCallSignal = async (body: CallSignalBody): Promise<void> => {
  const socket = getSocket();
  if (!socket.connected) throw new CallSignalError('OFFLINE', 'Not connected');
  const signingKey = await currentSigningKey(body.from);
  if (!signingKey) throw new CallSignalError('NO_SIGNING_KEY', 'This account has no signing key yet');
  const recipients = await checkedEncryptionKeys(body.from, [body.from, body.to]);
  const signal = await sealCallSignal(body, recipients, signingKey);
  let reply: AckReply;
  try {
    reply = (await socket.timeout(ackTimeoutMs).emitWithAck('call signal', {
      chatId: body.chatId,
      to: body.to,
      callId: body.callId,
      signal,
    })) as AckReply;
  } catch {
    throw new CallSignalError('OFFLINE', 'No answer from the server');
  }
  if (!reply.ok) throw new CallSignalError(reply.error.code, reply.error.message);
};

/**
 * A delivered signal, checked for `accountId`: signed by its sender's current signing key (from
 * their checked key log, fetched again once when it does not hold: they may have changed keys),
 * sealed for this account, saying what was signed, fresh, and, for an offer or an answer, signing
 * the fingerprint its SDP names.
 */
export const openDeliveredSignal = async (
  accountId: string,
  delivery: CallSignalDelivery,
): Promise<CallSignalOpening> => {
  const routing = { from: delivery.from, to: delivery.to, chatId: delivery.chatId, callId: delivery.callId };
  if (routing.to !== accountId && routing.from !== accountId) return { ok: false, failure: 'mismatch' };
  const privateKeys = await accountKeys(accountId);
  const open = async (fresh: boolean) => {
    const senderSigningKey = await checkedKeysOf(accountId, delivery.from, { fresh })
      .then((keys) => keys.signingKey)
      .catch(() => null);
    return openCallSignal({
      routing,
      sealed: delivery.signal,
      senderSigningKey,
      readerId: accountId,
      privateKeys,
      now: Date.now(),
    });
  };
  const first = await open(false);
  return !first.ok && first.failure === 'bad-signature' ? open(true) : first;
};
