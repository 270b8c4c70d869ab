import { getSocket } from '../../../lib/realtime.ts';
import { sendCallSignal } from './call-signals.ts';
import { pushedCallIn, type PushedCall } from './pushed-call-url.ts';

/**
 * The callee's side of ringing through Web Push (docs/calls.md, "Ringing through Web Push"). The
 * service worker showed a call that checked, and its notification opened this tab at
 * `/all-chats?chat=…&call=…&from=…&media=…`. The caller's offer was sent while no browser of
 * this account was connected, so this tab never got it: once its socket is up it tells the
 * caller, with a signed `ringing`, and the caller sends its offer again, which rings here as any
 * offer does. Nothing is trusted from the address: a `ringing` for a call the caller is not
 * placing to this account is ignored by the caller, and the offer is checked when it comes.
 */
/** Read as the app loads, before the page's own navigation can change the address. */
let openedFor: PushedCall | null =
  typeof window === 'undefined' ? null : pushedCallIn(window.location.search);

const connected = () =>
  new Promise<void>((resolve) => {
    const socket = getSocket();
    if (socket.connected) return resolve();
    socket.once('connect', () => resolve());
  });

/** Tells the caller this browser rings for the call its notification was opened for, once. */
export const ringBackPushedCall = async (accountId: string): Promise<void> => {
  const call = openedFor;
  openedFor = null;
  if (!call || call.callerId === accountId) return;
  await connected();
  await sendCallSignal({
    kind: 'ringing',
    from: accountId,
    to: call.callerId,
    chatId: call.chatId,
    callId: call.callId,
    media: call.media,
    sentAt: new Date().toISOString(),
  }).catch((error: unknown) => console.warn('Could not answer a pushed call', error));
};
