import type { ErrorBody, LinkClosedReason, LinkJoined, LinkOpened } from '@veil/contracts';
import {
  agreeLink,
  generateLinkKeyPair,
  linkCodeOf,
  linkCommitment,
  linkCommitmentMatches,
  linkQrTextOf,
  openLinkBundle,
  sealLinkBundle,
  type LinkAgreement,
  type VeilCryptoError,
} from '@veil/crypto';
import type { VeilSocket } from '../../lib/realtime.ts';
import { cryptoErrorText } from '../../lib/crypto-errors.ts';
import { i18n, t } from '../../lib/i18n.ts';

/**
 * Linking a new browser from a logged-in one, over the realtime gateway's link channel
 * (docs/crypto.md, "Linking a browser"). The new browser opens the link with a commitment to its
 * one-time key and shows the code; the logged-in browser joins with the code and sends its key;
 * the new browser then reveals its key; both show the same six digits; the user confirms on the
 * logged-in browser, which sends the account's keys encrypted to the agreement; the new browser
 * stores them and says so. The gateway relays these messages without reading them.
 */
export type LinkState =
  | { step: 'starting' }
  /**
   * The new browser: the code to type, and the QR text to scan (the code and the commitment to
   * this browser's key), until `expiresAt` (ms since the epoch).
   */
  | { step: 'waiting'; code: string; qr: string; expiresAt: number }
  | { step: 'confirm'; confirmation: string }
  | { step: 'transferring' }
  | { step: 'done' }
  | { step: 'expired' }
  | { step: 'refused'; message: string };

/** What one browser sends the other through the link, as JSON text. */
type LinkMessage =
  | { type: 'key'; publicKey: string }
  | { type: 'bundle'; iv: string; ciphertext: string }
  | { type: 'stored' };

const askTimeoutMs = 10_000;
const maxLinkMs = 120_000;

/** A failure the user is told about as it is. */
export class LinkFailure extends Error {}

const unexpected = () => new LinkFailure(t('link.unexpected'));

const parseMessage = (data: string): LinkMessage => {
  let message: Partial<Record<string, unknown>>;
  try {
    message = JSON.parse(data) as Partial<Record<string, unknown>>;
  } catch {
    throw unexpected();
  }
  const strings = (...names: string[]) => names.every((name) => typeof message[name] === 'string');
  if (message.type === 'key' && strings('publicKey')) return message as LinkMessage;
  if (message.type === 'bundle' && strings('iv', 'ciphertext')) return message as LinkMessage;
  if (message.type === 'stored') return { type: 'stored' };
  throw unexpected();
};

const closedText: Record<LinkClosedReason, () => string> = {
  cancelled: () => t('link.cancelled'),
  left: () => t('link.left'),
};

const isErrorBody = (error: unknown): error is ErrorBody =>
  typeof error === 'object' && error !== null && 'code' in error && 'message' in error;

const stateOfFailure = (error: unknown): LinkState => {
  if (isErrorBody(error))
    return error.code === 'LINK_EXPIRED'
      ? { step: 'expired' }
      : {
          step: 'refused',
          message: i18n.exists(`errors.${error.code}`) ? t(`errors.${error.code}`) : error.message,
        };
  if (error instanceof Error && error.name === 'VeilCryptoError')
    return { step: 'refused', message: cryptoErrorText(error as VeilCryptoError) };
  if (error instanceof LinkFailure) return { step: 'refused', message: error.message };
  console.error('Linking failed', error);
  return { step: 'refused', message: t('link.failed') };
};

const finalSteps = new Set<LinkState['step']>(['done', 'expired', 'refused']);

type Reply<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };
const answerOf = async <T>(reply: Promise<Reply<T>>): Promise<T> => {
  let answer: Reply<T>;
  try {
    answer = await reply;
  } catch {
    throw new LinkFailure(t('link.noAnswer'));
  }
  if (!answer.ok) throw answer.error;
  return answer.data;
};

/**
 * One browser's end of a link: the requests, the messages from the other end, the expiry, and
 * the end of it all (the link is closed once, whichever way it ends).
 */
const linkEnd = (socket: VeilSocket, onState: (state: LinkState) => void) => {
  let linkId: string | null = null;
  let over = false;
  let expiry: ReturnType<typeof setTimeout> | undefined;
  let handle: (message: LinkMessage) => Promise<void> = async () => {
    throw unexpected();
  };

  const onRelay = ({ linkId: id, data }: { linkId: string; data: string }) => {
    if (id !== linkId || over) return;
    Promise.resolve()
      .then(() => handle(parseMessage(data)))
      .catch(fail);
  };
  const onClosed = ({ linkId: id, reason }: { linkId: string; reason: LinkClosedReason }) => {
    if (id === linkId) end({ step: 'refused', message: closedText[reason]() }, false);
  };
  const onDisconnect = () => end({ step: 'refused', message: t('link.connectionLost') }, false);
  socket.on('link relay', onRelay);
  socket.on('link closed', onClosed);
  socket.on('disconnect', onDisconnect);

  const end = (state: LinkState | null, closeLink: boolean) => {
    if (over) return;
    over = true;
    clearTimeout(expiry);
    socket.off('link relay', onRelay);
    socket.off('link closed', onClosed);
    socket.off('disconnect', onDisconnect);
    if (closeLink && linkId && socket.connected) socket.emit('link close', { linkId });
    if (state) onState(state);
  };
  function fail(error: unknown) {
    end(stateOfFailure(error), true);
  }
  const set = (state: LinkState) => {
    if (over) return;
    if (finalSteps.has(state.step)) end(state, true);
    else onState(state);
  };
  const expireAt = (expiresAt: string) => {
    const at = Math.min(Date.parse(expiresAt), Date.now() + maxLinkMs);
    expiry = setTimeout(() => set({ step: 'expired' }), Math.max(0, at - Date.now()));
    return at;
  };

  return {
    set,
    fail,
    onMessage(handler: (message: LinkMessage) => Promise<void>) {
      handle = handler;
    },
    async open(commitment: string) {
      const opened = await answerOf<LinkOpened>(
        socket.timeout(askTimeoutMs).emitWithAck('link open', { commitment }),
      );
      linkId = opened.linkId;
      return { linkId: opened.linkId, expiresAt: expireAt(opened.expiresAt) };
    },
    async join(id: string) {
      const joined = await answerOf<LinkJoined>(
        socket.timeout(askTimeoutMs).emitWithAck('link join', { linkId: id }),
      );
      linkId = id;
      expireAt(joined.expiresAt);
      return joined;
    },
    async send(message: LinkMessage) {
      if (!linkId || over) return;
      await answerOf<undefined>(
        socket.timeout(askTimeoutMs).emitWithAck('link relay', { linkId, data: JSON.stringify(message) }),
      );
    },
    cancel: () => end(null, true),
  };
};

export interface LinkSession {
  cancel(): void;
}

/**
 * The new browser's side: opens a link and stores the keys that come through it with `keep`
 * (which must refuse keys that are not the account's).
 */
export const linkAsNewBrowser = (
  socket: VeilSocket,
  options: { keep: (bundle: string) => Promise<void>; onState: (state: LinkState) => void },
): LinkSession => {
  const end = linkEnd(socket, options.onState);
  void (async () => {
    end.set({ step: 'starting' });
    const own = await generateLinkKeyPair();
    let agreement: LinkAgreement | null = null;
    end.onMessage(async (message) => {
      if (message.type === 'key' && !agreement) {
        agreement = await agreeLink(own.privateKey, message.publicKey, {
          newBrowser: own.publicKey,
          oldBrowser: message.publicKey,
        });
        // Revealed only now that the other key is here: see the commitment in docs/crypto.md.
        await end.send({ type: 'key', publicKey: own.publicKey });
        end.set({ step: 'confirm', confirmation: agreement.confirmation });
      } else if (message.type === 'bundle' && agreement) {
        end.set({ step: 'transferring' });
        await options.keep(await openLinkBundle(agreement, message));
        await end.send({ type: 'stored' });
        end.set({ step: 'done' });
      } else throw unexpected();
    });
    const commitment = await linkCommitment(own.publicKey);
    const { linkId, expiresAt } = await end.open(commitment);
    const code = await linkCodeOf(linkId);
    end.set({ step: 'waiting', code, qr: linkQrTextOf(code, commitment), expiresAt });
  })().catch(end.fail);
  return { cancel: end.cancel };
};

export interface JoinedLinkSession extends LinkSession {
  /** The user saw the same digits on both screens: send the keys. */
  confirm(): void;
}

/**
 * The logged-in browser's side: joins the link `linkId` (from the code) and, once the user
 * confirms the digits, sends the bundle `exportBundle` makes. `scannedCommitment` is the
 * commitment the new browser's QR code showed: the one the relay serves must be it, so the key
 * the new browser reveals is checked against its own screen, not only against the relay's word.
 */
export const linkFromOldBrowser = (
  socket: VeilSocket,
  linkId: string,
  options: {
    exportBundle: () => Promise<string>;
    onState: (state: LinkState) => void;
    scannedCommitment?: string | null;
  },
): JoinedLinkSession => {
  const end = linkEnd(socket, options.onState);
  let agreement: LinkAgreement | null = null;
  let confirmed = false;
  void (async () => {
    end.set({ step: 'starting' });
    const own = await generateLinkKeyPair();
    const { commitment } = await end.join(linkId);
    if (options.scannedCommitment && options.scannedCommitment !== commitment)
      throw new LinkFailure(t('link.qrMismatch'));
    end.onMessage(async (message) => {
      if (message.type === 'key' && !agreement) {
        if (!(await linkCommitmentMatches(commitment, message.publicKey)))
          throw new LinkFailure(t('link.keyMismatch'));
        agreement = await agreeLink(own.privateKey, message.publicKey, {
          newBrowser: message.publicKey,
          oldBrowser: own.publicKey,
        });
        end.set({ step: 'confirm', confirmation: agreement.confirmation });
      } else if (message.type === 'stored' && agreement) end.set({ step: 'done' });
      else throw unexpected();
    });
    await end.send({ type: 'key', publicKey: own.publicKey });
  })().catch(end.fail);
  return {
    cancel: end.cancel,
    confirm() {
      if (!agreement || confirmed) return;
      confirmed = true;
      const sealedFor = agreement;
      end.set({ step: 'transferring' });
      void (async () => {
        await end.send({
          type: 'bundle',
          ...(await sealLinkBundle(sealedFor, await options.exportBundle())),
        });
      })().catch(end.fail);
    },
  };
};
