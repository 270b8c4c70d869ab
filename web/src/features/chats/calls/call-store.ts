import type { CallMedia } from '@veil/crypto';
import type { MediaProblem } from './call-media.ts';
import type { CallNotice } from './call-outgoing.ts';

/**
 * What the screen shows of calls: the one call of this browser (at most one at a time, as in
 * Signal: a one-to-one call or a group call), the group calls going on in this account's groups
 * (for their "Join" button), and a warning about a call that was refused because it did not
 * check. A small store of its own (`useSyncExternalStore`): media streams do not belong in Redux.
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
  /** Group calls: the call already holds as many people as a call can. */
  | 'full'
  /** Group calls: no one was left in the call to join, or everyone else left. */
  | 'call-over'
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
  /** The screen is sent in the camera's place. */
  sharing: boolean;
  /** A device switch or screen share that did not happen, until the next one does. */
  notice: CallNotice | null;
  localStream: MediaStream | null;
  remoteStream: MediaStream | null;
  end: CallEnd | null;
}

/** What one's side of any call starts with: nothing connected, muted, shared or ended yet. */
export const callStartsWith = {
  connectedAt: null,
  endedAt: null,
  muted: false,
  cameraOff: false,
  sharing: false,
  notice: null,
  localStream: null,
  end: null,
} as const satisfies Partial<CallState> & Partial<GroupCallState>;

/** Someone else in a group call, as this browser's connection with them stands. */
export interface GroupCallPeer {
  userId: string;
  connected: boolean;
  stream: MediaStream | null;
  /** As that person's browser says over the connection. */
  muted: boolean;
  cameraOff: boolean;
}

export type GroupCallPhase = 'incoming' | 'connecting' | 'active' | 'ended';

/** This browser's group call: a mesh, one connection per other participant. */
export interface GroupCallState {
  callId: string;
  chatId: string;
  /** Who started it. */
  callerId: string;
  media: CallMedia;
  direction: 'outgoing' | 'incoming';
  phase: GroupCallPhase;
  /** When this browser first connected with someone in it. */
  connectedAt: number | null;
  endedAt: number | null;
  muted: boolean;
  cameraOff: boolean;
  sharing: boolean;
  notice: CallNotice | null;
  localStream: MediaStream | null;
  peers: GroupCallPeer[];
  /** Everyone this browser was connected with over the call (its timeline entry names them). */
  joined: string[];
  end: CallEnd | null;
}

/** A group call going on in one of this account's groups, as its members' signals told. */
export interface OngoingGroupCall {
  callId: string;
  chatId: string;
  callerId: string;
  media: CallMedia;
  participants: string[];
}

/**
 * A call signal that was refused: it did not check (`signature`), or it came from someone the
 * group's signed membership does not hold (`not-a-member`).
 */
export interface RefusedCall {
  peerId: string;
  chatId: string;
  at: number;
  reason?: 'signature' | 'not-a-member';
}

export interface CallsView {
  call: CallState | null;
  group: GroupCallState | null;
  /** By chat id. */
  ongoing: Readonly<Record<string, OngoingGroupCall>>;
  refused: RefusedCall | null;
}

let view: CallsView = { call: null, group: null, ongoing: {}, refused: null };
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

/** Sets (or, with null, ends) what is known of the group call going on in `chatId`. */
export const setOngoingGroupCall = (chatId: string, call: OngoingGroupCall | null): void => {
  const { [chatId]: _was, ...others } = view.ongoing;
  setCallsView({ ongoing: call ? { ...others, [chatId]: call } : others });
};

/** Whether this browser is in a call of either kind, or one rings here. */
export const busyWithACall = (shown: CallsView = view): boolean =>
  Boolean((shown.call && shown.call.phase !== 'ended') || (shown.group && shown.group.phase !== 'ended'));
