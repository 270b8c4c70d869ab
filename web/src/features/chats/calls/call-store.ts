import type { CallMedia } from '@veil/crypto';
import type { MediaProblem } from './call-media.ts';

/**
 * What the screen shows of calls: the one call of this browser (at most one at a time, as in
 * Signal), and a warning about a call that was refused because it did not check. A small store
 * of its own (`useSyncExternalStore`): media streams do not belong in Redux.
 */

/** How a call ended, as the screen says it. */
export type CallEnd =
  | 'hung-up'
  | 'remote-hung-up'
  | 'declined'
  | 'busy'
  | 'no-answer'
  | 'unreachable'
  | 'missed'
  | 'answered-elsewhere'
  | 'declined-elsewhere'
  | 'connection-lost'
  /** The other side's signals or connection did not check: someone may have tried to listen in. */
  | 'refused'
  | 'offline'
  | 'keys-unchecked'
  | MediaProblem;

export type CallPhase =
  /** Outgoing: the offer is out, no browser of the other side has said it rings yet. */
  | 'calling'
  /** Outgoing: the other side's browser rings. */
  | 'ringing'
  /** Incoming: this browser rings. */
  | 'incoming'
  | 'connecting'
  | 'active'
  /** The connection dropped; it may come back. */
  | 'reconnecting'
  | 'ended';

export interface CallState {
  callId: string;
  chatId: string;
  peerId: string;
  media: CallMedia;
  direction: 'outgoing' | 'incoming';
  phase: CallPhase;
  /** When media began to flow (this browser's clock), for the timer and the record. */
  connectedAt: number | null;
  endedAt: number | null;
  muted: boolean;
  cameraOff: boolean;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  end: CallEnd | null;
}

/** A call that arrived and was refused before it rang: its signals did not check. */
export interface RefusedCall {
  peerId: string;
  chatId: string;
  at: number;
}

export interface CallsView {
  call: CallState | null;
  refused: RefusedCall | null;
}

let view: CallsView = { call: null, refused: null };
const listeners = new Set<() => void>();

export const callsView = (): CallsView => view;

export const subscribeCalls = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

export const setCallsView = (next: Partial<CallsView>): void => {
  view = { ...view, ...next };
  for (const listener of listeners) listener();
};

/** Changes the current call, if it is still `callId`. */
export const updateCall = (callId: string, change: Partial<CallState>): void => {
  if (view.call?.callId !== callId) return;
  setCallsView({ call: { ...view.call, ...change } });
};
