import { sameFingerprint } from '@veil/crypto';
import { localDescription } from './call-connection.ts';

/**
 * Bringing a dropped call back (docs/calls.md, "Reconnecting"): an ICE restart, which gathers
 * candidates afresh (a new network, a relay that came back) under the same DTLS session. One
 * fixed side restarts, the caller, so the two never offer at once.
 */

/** How often a side that restarts tries again while the connection stays down. */
export const restartEveryMs = 4_000;

/** A new offer that restarts ICE on `pc`, with the fingerprint its SDP names (signed with it). */
export const restartOffer = (pc: RTCPeerConnection): Promise<{ sdp: string; fingerprint: string }> => {
  pc.restartIce();
  return localDescription(pc, 'offer');
};

/**
 * Whether a description that restarts a connection names the certificate the other side signed
 * when the call began: a restart carries on the same DTLS session, so any other is someone
 * getting in the middle.
 */
export const sameCertificate = (signedBefore: string | null, now: string | undefined): boolean =>
  Boolean(signedBefore && now && sameFingerprint(signedBefore, now));

/** The `o=` line's session id: JSEP keeps it for every later offer of the same connection. */
const sessionIdOf = (sdp: string | undefined): string | null => /^o=\S+ (\d+) /m.exec(sdp ?? '')?.[1] ?? null;

/** Whether `offered` comes from the connection that described `before` (a restart), not a new one. */
export const sameSession = (before: string | undefined, offered: string | undefined): boolean => {
  const id = sessionIdOf(before);
  return id !== null && id === sessionIdOf(offered);
};

/**
 * Calls `onChange` when the browser says its network changed (`online`, and the Network
 * Information API's `change` where there is one); the returned function stops.
 */
export const watchNetworkChanges = (onChange: () => void): (() => void) => {
  const connection = (navigator as Navigator & { connection?: EventTarget }).connection;
  window.addEventListener('online', onChange);
  connection?.addEventListener('change', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    connection?.removeEventListener('change', onChange);
  };
};
