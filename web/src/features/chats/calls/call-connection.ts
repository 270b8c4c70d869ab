import { sameFingerprint, sdpFingerprint } from '@veil/crypto';
import { KeysUncheckedError } from '../../keys/index.ts';
import { CallMediaError, remoteCertificateFingerprint } from './call-media.ts';
import { CallSignalError } from './call-signals.ts';
import type { CallEnd } from './call-store.ts';

/** What one-to-one and group calls share about a peer connection (docs/calls.md). */

/** How long a caller waits for the other side to be reached (a browser that rings, or answers). */
export const reachMs = 15_000;
/** How long a call rings before it counts as unanswered (Signal: about a minute). */
export const ringMs = 45_000;
/** How long a dropped connection may take to come back before it is given up. */
export const reconnectMs = 15_000;
/** How long the end of a call stays on screen. */
export const endShownMs = 6_000;

/** A random 128-bit call id, hex. */
export const newCallId = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** Whether the connection met the certificate the other side signed (checked once connected). */
export const certificateHolds = async (pc: RTCPeerConnection, signed: string): Promise<boolean> => {
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const met = await remoteCertificateFingerprint(pc);
    if (met) return sameFingerprint(met, signed);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
};

/**
 * Makes and sets this side's offer or answer; answers its SDP with the DTLS fingerprint it names,
 * which the signal carrying it signs.
 */
export const localDescription = async (
  pc: RTCPeerConnection,
  type: 'offer' | 'answer',
): Promise<{ sdp: string; fingerprint: string }> => {
  const made = type === 'offer' ? await pc.createOffer() : await pc.createAnswer();
  await pc.setLocalDescription(made);
  const sdp = pc.localDescription?.sdp ?? made.sdp ?? '';
  const fingerprint = sdpFingerprint(sdp);
  if (!fingerprint) throw new Error(`The ${type} names no DTLS fingerprint`);
  return { sdp, fingerprint };
};

/** How a call that failed ends, as the screen says it. */
export const endForError = (error: unknown): CallEnd => {
  if (error instanceof CallMediaError) return error.problem;
  if (error instanceof KeysUncheckedError) return 'keys-unchecked';
  if (error instanceof CallSignalError) {
    if (error.code === 'OFFLINE') return 'offline';
    if (error.code === 'NO_SIGNING_KEY') return 'keys-unchecked';
  }
  console.warn('A call failed', error);
  return 'connection-lost';
};
