import type { CallPushedNotice, CallSignalDelivery } from '@veil/contracts';
import {
  sdpFingerprint,
  type CallIceCandidate,
  type CallMedia,
  type CallSignalBody,
  type CallSignalKind,
} from '@veil/crypto';
import { getSocket } from '../../../lib/realtime.ts';
import {
  certificateHolds,
  endForError,
  endShownMs,
  localDescription,
  newCallId,
  reachMs,
  reconnectMs,
  ringMs,
} from './call-connection.ts';
import { fetchIceConfig, openLocalMedia, stopMedia } from './call-media.ts';
import { outgoingMedia, type OutgoingMedia } from './call-outgoing.ts';
import { ringBackPushedCall } from './call-push-ring.ts';
import { restartEveryMs, restartOffer, sameCertificate, watchNetworkChanges } from './call-reconnect.ts';
import { openDeliveredSignal, sendCallSignal } from './call-signals.ts';
import { callStartsWith, callsView, setCallsView, updateCall, type CallEnd, type CallState } from './call-store.ts';
import {
  groupCallSignal,
  inGroupCall,
  restartGroupConnections,
  startGroupCalls,
  stopGroupCalls,
} from './group-call-engine.ts';

/**
 * One-to-one calls over WebRTC (docs/calls.md). The set-up travels as sealed, signed signals
 * (`call-signals.ts`) through the realtime gateway; media flows between the two browsers (or
 * through a TURN relay), encrypted by DTLS-SRTP with the certificates whose fingerprints the two
 * sides signed. Once connected, each side compares the certificate its connection met with the
 * fingerprint the other signed, and ends the call with a warning when they differ.
 */

interface Live {
  state: CallState;
  pc: RTCPeerConnection | null;
  /** The other side's signed DTLS fingerprint, from its offer or answer. */
  peerFingerprint: string | null;
  /** Candidates that came before the other side's description. */
  pending: CallIceCandidate[];
  /** Incoming: the offer, until the call is answered. */
  offer: CallSignalBody | null;
  timers: ReturnType<typeof setTimeout>[];
  /** Switching devices and sharing the screen. */
  outgoing: OutgoingMedia;
  /** When the connection last dropped, while it is down: its grace runs from then. */
  droppedAt: number | null;
  /**
   * Outgoing: the server said the callee had no browser connected and was pushed (unsigned, so
   * it only lets the call wait for an answer instead of ending as not reachable).
   */
  pushed: boolean;
}

let me: string | null = null;
let isBlocked: (userId: string) => boolean = () => false;
let live: Live | null = null;
/** Signals are handled one at a time, in the order they came: a candidate never overtakes its offer. */
let queue: Promise<void> = Promise.resolve();
/** Calls this browser has finished with: their late signals are ignored. */
const finished = new Set<string>();

/** A call as it starts, in either direction: nothing connected, muted or ended yet. */
const startingCall = (
  call: Pick<CallState, 'callId' | 'chatId' | 'peerId' | 'media' | 'direction' | 'phase'>,
): CallState => ({
  ...call,
  ...callStartsWith,
  remoteStream: null,
});

const set = (change: Partial<CallState>) => {
  if (!live) return;
  live.state = { ...live.state, ...change };
  updateCall(live.state.callId, change);
};

const bodyFor = (kind: CallSignalKind, extra: Partial<CallSignalBody> = {}): CallSignalBody | null => {
  if (!live || !me) return null;
  return {
    kind,
    from: me,
    to: live.state.peerId,
    chatId: live.state.chatId,
    callId: live.state.callId,
    media: live.state.media,
    sentAt: new Date().toISOString(),
    ...extra,
  };
};

/** Signals leave in the order they were made: an offer before its candidates. */
let sending: Promise<unknown> = Promise.resolve();

const signal = (kind: CallSignalKind, extra: Partial<CallSignalBody> = {}): Promise<void> => {
  const body = bodyFor(kind, extra);
  if (!body) return Promise.resolve();
  const sent = sending.then(() => sendCallSignal(body));
  sending = sent.catch(() => undefined);
  return sent;
};

/** Sends without waiting, for signals whose loss the other side survives (it times out). */
const signalQuietly = (kind: CallSignalKind, extra: Partial<CallSignalBody> = {}) =>
  void signal(kind, extra).catch((error: unknown) => console.warn(`Could not send a call ${kind}`, error));

/** Ends the current call: stops its media and connection, tells the other side when asked to. */
const finish = (end: CallEnd, tell?: 'hangup' | 'decline' | 'busy') => {
  const current = live;
  if (!current) return;
  if (tell) signalQuietly(tell);
  for (const timer of current.timers) clearTimeout(timer);
  current.pc?.close();
  current.outgoing.close();
  stopMedia(current.state.localStream);
  finished.add(current.state.callId);
  live = null;
  const endedAt = Date.now();
  updateCall(current.state.callId, { phase: 'ended', end, endedAt, localStream: null });
  setTimeout(() => {
    if (callsView().call?.callId === current.state.callId && callsView().call?.phase === 'ended')
      setCallsView({ call: null });
  }, endShownMs);
};

/** The call `callId`'s outgoing media, while it is the current call. */
const outgoingOf = (callId: string): OutgoingMedia =>
  outgoingMedia({
    state: () => (live?.state.callId === callId ? live.state : null),
    connections: () => (live?.state.callId === callId && live.pc ? [live.pc] : []),
    update: (change) => {
      if (live?.state.callId === callId) set(change);
    },
  });

const later = (ms: number, work: () => void) => {
  const timer = setTimeout(work, ms);
  live?.timers.push(timer);
};

const connectionOf = async (callId: string, stream: MediaStream): Promise<RTCPeerConnection> => {
  const pc = new RTCPeerConnection(await fetchIceConfig());
  for (const track of stream.getTracks()) pc.addTrack(track, stream);
  const remote = new MediaStream();
  pc.ontrack = (event) => {
    remote.addTrack(event.track);
    updateCall(callId, { remoteStream: remote });
  };
  pc.onicecandidate = (event) => {
    if (!event.candidate || live?.state.callId !== callId) return;
    const { candidate, sdpMid, sdpMLineIndex } = event.candidate;
    signalQuietly('ice', { candidate: { candidate, sdpMid, sdpMLineIndex } });
  };
  pc.onconnectionstatechange = () => {
    if (live?.state.callId !== callId) return;
    const state = pc.connectionState;
    if (state === 'connected') void connected(callId, pc);
    else if (state === 'disconnected' || state === 'failed') dropped(state);
  };
  return pc;
};

/**
 * The connection of the current call went down: "Reconnecting…", and the caller restarts ICE
 * until it is back or the grace is over ("The connection was lost"). One that never connected
 * and failed is given up at once.
 */
const dropped = (state: 'disconnected' | 'failed') => {
  const current = live;
  if (!current) return;
  if (current.state.phase === 'active') {
    const since = Date.now();
    current.droppedAt = since;
    set({ phase: 'reconnecting' });
    later(reconnectMs, () => {
      if (live === current && current.state.phase === 'reconnecting' && current.droppedAt === since)
        finish('connection-lost', 'hangup');
    });
    keepRestarting(current);
  } else if (state === 'failed' && current.state.phase !== 'reconnecting')
    finish('connection-lost', 'hangup');
};

/** The caller offers an ICE restart now, and again every few seconds while the call is down. */
const keepRestarting = (current: Live) => {
  if (live !== current || current.state.phase !== 'reconnecting') return;
  void restartIce(current);
  later(restartEveryMs, () => keepRestarting(current));
};

/**
 * An ICE restart, offered by the caller (the callee answers), sealed and signed like the first
 * offer. Not while an offer is still unanswered: its answer would not fit the newer one.
 */
const restartIce = async (current: Live) => {
  const pc = current.pc;
  if (live !== current || current.state.direction !== 'outgoing' || pc?.signalingState !== 'stable') return;
  try {
    await signal('offer', await restartOffer(pc));
  } catch (error) {
    console.warn('Could not restart the call’s connection', error);
  }
};

/** The network changed under a call in progress: the caller restarts at once, not waiting for a drop. */
const onNetworkChange = () => {
  if (live && (live.state.phase === 'active' || live.state.phase === 'reconnecting')) void restartIce(live);
  restartGroupConnections();
};

const connected = async (callId: string, pc: RTCPeerConnection) => {
  const signed = live?.peerFingerprint;
  if (!signed || !(await certificateHolds(pc, signed))) {
    if (live?.state.callId === callId) finish('refused', 'hangup');
    return;
  }
  if (live?.state.callId !== callId) return;
  live.droppedAt = null;
  set({ phase: 'active', connectedAt: live.state.connectedAt ?? Date.now() });
};

const addCandidate = async (candidate: CallIceCandidate) => {
  if (!live) return;
  if (!live.pc?.remoteDescription) {
    live.pending.push(candidate);
    return;
  }
  await live.pc.addIceCandidate(candidate).catch((error: unknown) => console.warn('A bad candidate', error));
};

const flushCandidates = async () => {
  const pending = live?.pending.splice(0) ?? [];
  for (const candidate of pending) await addCandidate(candidate);
};

/** Calls `peerId` in `chatId`: opens the microphone (and camera), then offers. */
export const startCall = async (chatId: string, peerId: string, media: CallMedia): Promise<void> => {
  if (!me || live || inGroupCall()) return;
  const callId = newCallId();
  live = {
    state: startingCall({ callId, chatId, peerId, media, direction: 'outgoing', phase: 'calling' }),
    pc: null,
    peerFingerprint: null,
    pending: [],
    offer: null,
    timers: [],
    outgoing: outgoingOf(callId),
    droppedAt: null,
    pushed: false,
  };
  setCallsView({ call: live.state });
  try {
    const stream = await openLocalMedia(media);
    if (live?.state.callId !== callId) return stopMedia(stream);
    set({ localStream: stream });
    const pc = await connectionOf(callId, stream);
    live.pc = pc;
    await signal('offer', await localDescription(pc, 'offer'));
    later(reachMs, () => {
      if (live?.state.callId === callId && live.state.phase === 'calling' && !live.pushed)
        finish('unreachable', 'hangup');
    });
    later(ringMs, () => {
      if (live?.state.callId === callId && (live.state.phase === 'calling' || live.state.phase === 'ringing'))
        finish('no-answer', 'hangup');
    });
  } catch (error) {
    if (live?.state.callId === callId) finish(endForError(error));
  }
};

/** Answers the ringing call, with the camera for `media: 'video'`. */
export const acceptCall = async (media: CallMedia): Promise<void> => {
  const current = live;
  if (!current?.offer || current.state.phase !== 'incoming') return;
  const callId = current.state.callId;
  const offer = current.offer;
  set({ phase: 'connecting', media });
  try {
    const stream = await openLocalMedia(media);
    if (live?.state.callId !== callId) return stopMedia(stream);
    set({ localStream: stream });
    const pc = await connectionOf(callId, stream);
    live.pc = pc;
    live.offer = null;
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp ?? '' });
    await flushCandidates();
    await signal('answer', { ...(await localDescription(pc, 'answer')), media });
  } catch (error) {
    if (live?.state.callId === callId) finish(endForError(error), 'hangup');
  }
};

export const declineCall = (): void => {
  if (live?.state.phase === 'incoming') finish('declined', 'decline');
};

export const hangUp = (): void => {
  if (live) finish('hung-up', 'hangup');
};

export const toggleMute = (): void => {
  if (!live) return;
  const muted = !live.state.muted;
  for (const track of live.state.localStream?.getAudioTracks() ?? []) track.enabled = !muted;
  set({ muted });
};

export const toggleCamera = (): void => {
  if (!live) return;
  const cameraOff = !live.state.cameraOff;
  for (const track of live.state.localStream?.getVideoTracks() ?? []) track.enabled = !cameraOff;
  set({ cameraOff });
};

export const switchCallInput = (kind: 'audio' | 'video', deviceId: string): Promise<void> =>
  live?.outgoing.switchInput(kind, deviceId) ?? Promise.resolve();

export const shareScreen = (): Promise<void> => live?.outgoing.shareScreen() ?? Promise.resolve();

export const stopSharingScreen = (): Promise<void> => live?.outgoing.stopSharing() ?? Promise.resolve();

/** Dismisses an ended call or a refused one's warning. */
export const dismissCall = (): void => {
  if (callsView().call?.phase === 'ended') setCallsView({ call: null });
  setCallsView({ refused: null });
};

/** An offer from the other side: ring, or say "busy" when already in another call. */
const onOffer = (body: CallSignalBody) => {
  if (isBlocked(body.from)) return;
  if (live || inGroupCall()) {
    if (live?.state.callId !== body.callId) {
      const busy: CallSignalBody = {
        ...body,
        kind: 'busy',
        from: body.to,
        to: body.from,
        sentAt: new Date().toISOString(),
      };
      delete busy.sdp;
      delete busy.fingerprint;
      void sendCallSignal(busy).catch((error: unknown) => console.warn('Could not say busy', error));
    }
    return;
  }
  live = {
    state: startingCall({
      callId: body.callId,
      chatId: body.chatId,
      peerId: body.from,
      media: body.media,
      direction: 'incoming',
      phase: 'incoming',
    }),
    pc: null,
    peerFingerprint: body.fingerprint ?? null,
    pending: [],
    offer: body,
    timers: [],
    outgoing: outgoingOf(body.callId),
    droppedAt: null,
    pushed: false,
  };
  setCallsView({ call: live.state });
  signalQuietly('ringing');
  const callId = body.callId;
  later(ringMs + reachMs, () => {
    if (live?.state.callId === callId && live.state.phase === 'incoming') finish('missed');
  });
};

/** A signal of this account's other browser about the call ringing here. */
const onOwnSignal = (body: CallSignalBody) => {
  if (live?.state.callId !== body.callId || live.state.phase !== 'incoming') return;
  if (body.kind === 'answer') finish('answered-elsewhere');
  else if (body.kind === 'decline') finish('declined-elsewhere');
};

/** A signal of the other party about the current call. */
const onPeerSignal = async (body: CallSignalBody) => {
  const current = live;
  if (!current || current.state.callId !== body.callId || current.state.peerId !== body.from) return;
  switch (body.kind) {
    case 'ringing':
      if (current.state.phase !== 'calling') return;
      set({ phase: 'ringing' });
      // A browser opened from the push rings back before it has the offer sent while it was away.
      if (current.pushed) return offerAgain(current);
      return;
    case 'answer':
      if (current.state.direction !== 'outgoing' || !current.pc) return;
      if (current.pc.remoteDescription) return restartAnswered(current, body);
      current.peerFingerprint = body.fingerprint ?? null;
      set({ phase: 'connecting' });
      await current.pc.setRemoteDescription({ type: 'answer', sdp: body.sdp ?? '' });
      await flushCandidates();
      return;
    case 'ice':
      if (body.candidate) await addCandidate(body.candidate);
      return;
    case 'decline':
      finish('declined');
      return;
    case 'busy':
      finish('busy');
      return;
    case 'hangup':
      finish(current.state.phase === 'incoming' ? 'missed' : 'remote-hung-up');
      return;
    case 'offer':
      return answerRestart(current, body);
  }
};

/** The caller's offer once more, signed afresh, for a callee's browser that has just come online. */
const offerAgain = async (current: Live) => {
  const sdp = current.pc?.localDescription?.sdp;
  const fingerprint = sdp && sdpFingerprint(sdp);
  if (current.state.direction !== 'outgoing' || !sdp || !fingerprint) return;
  await signal('offer', { sdp, fingerprint });
};

/** The server pushed the callee of the call this browser places. */
const onPushed = (notice: CallPushedNotice) => {
  if (live?.state.callId === notice.callId && live.state.direction === 'outgoing') live.pushed = true;
};

/** The callee answers the caller's ICE restart, if it names the certificate signed at the start. */
const answerRestart = async (current: Live, body: CallSignalBody) => {
  if (current.state.direction !== 'incoming' || !current.pc?.remoteDescription) return;
  if (!sameCertificate(current.peerFingerprint, body.fingerprint)) return finish('refused', 'hangup');
  await current.pc.setRemoteDescription({ type: 'offer', sdp: body.sdp ?? '' });
  await signal('answer', await localDescription(current.pc, 'answer'));
};

/** The callee's answer to the caller's ICE restart, checked the same way. */
const restartAnswered = async (current: Live, body: CallSignalBody) => {
  if (current.pc?.signalingState !== 'have-local-offer') return;
  if (!sameCertificate(current.peerFingerprint, body.fingerprint)) return finish('refused', 'hangup');
  await current.pc.setRemoteDescription({ type: 'answer', sdp: body.sdp ?? '' });
};

/** A signal that did not check: warn when it was about this call or would have rung. */
const onRefused = (delivery: CallSignalDelivery) => {
  if (!me || delivery.from === me) return;
  if (live && live.state.callId === delivery.callId && live.state.peerId === delivery.from) {
    finish('refused', 'hangup');
    return;
  }
  if (!live && !finished.has(delivery.callId))
    setCallsView({ refused: { peerId: delivery.from, chatId: delivery.chatId, at: Date.now() } });
};

const handle = async (delivery: CallSignalDelivery) => {
  if (!me || finished.has(delivery.callId)) return;
  const opened = await openDeliveredSignal(me, delivery);
  if (!opened.ok) {
    // A replay of an old signal is no attack on a call; anything else is.
    if (opened.failure !== 'stale') onRefused(delivery);
    else console.warn('A stale call signal was ignored');
    return;
  }
  const body = opened.body;
  if (body.group) return groupCallSignal(body);
  if (body.from === me) return onOwnSignal(body);
  if (body.to !== me) return;
  // An offer for the call in progress restarts its connection; any other may ring.
  if (body.kind === 'offer' && live?.state.callId !== body.callId) return onOffer(body);
  await onPeerSignal(body);
};

/**
 * Starts taking calls for `accountId` on the shared socket; the returned function stops, ending
 * any call. `blocked` says whose calls never ring.
 */
export const startCalls = (accountId: string, blocked: (userId: string) => boolean): (() => void) => {
  me = accountId;
  isBlocked = blocked;
  startGroupCalls(accountId, (userId) => isBlocked(userId));
  const socket = getSocket();
  const onSignal = (delivery: CallSignalDelivery) => {
    queue = queue
      .then(() => handle(delivery))
      .catch((error: unknown) => {
        console.warn('A call signal failed', error);
        if (live?.state.callId === delivery.callId) finish(endForError(error), 'hangup');
      });
  };
  socket.on('call signal', onSignal);
  socket.on('call pushed', onPushed);
  void ringBackPushedCall(accountId);
  const stopWatching = watchNetworkChanges(onNetworkChange);
  return () => {
    socket.off('call signal', onSignal);
    socket.off('call pushed', onPushed);
    stopWatching();
    hangUp();
    stopGroupCalls();
    me = null;
    setCallsView({ call: null, refused: null, group: null, ongoing: {} });
  };
};

/** Updates whose calls never ring, as the blocked list changes. */
export const setCallBlocking = (blocked: (userId: string) => boolean): void => {
  isBlocked = blocked;
};
