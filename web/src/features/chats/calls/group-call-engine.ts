import type { CallIceCandidate, CallMedia, CallSignalBody, CallSignalKind } from '@veil/crypto';
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
import { restartEveryMs, restartOffer, sameCertificate, sameSession } from './call-reconnect.ts';
import { CallSignalError, sendCallSignal } from './call-signals.ts';
import {
  busyWithACall,
  callStartsWith,
  callsView,
  setCallsView,
  setOngoingGroupCall,
  type CallEnd,
  type GroupCallPeer,
  type GroupCallState,
} from './call-store.ts';
import { groupCallMembers } from './group-call-members.ts';

/**
 * Group calls as a mesh (docs/calls.md, "Group calls"): one peer connection per pair of
 * participants, each pair's signals sealed for those two and signed as a one-to-one call's are.
 * The caller rings every member of the group with an `invite`; whoever joins offers to everyone
 * already in the call (so two connections never offer to each other, but for two who join at
 * once: then the offer of the one whose id sorts first stands), and learns who else is in from
 * their answers. Only members of the group as this browser verified its signed chain take part:
 * an invite or an offer from anyone else is refused with the warning.
 */

/** The most people in one call: each sends its media to every other (7 streams out at 8). */
export const groupCallLimit = 8;
interface Peer {
  pc: RTCPeerConnection;
  /** This side offered: it joined after them. */
  offered: boolean;
  /** Their signed DTLS fingerprint, from their offer or answer. */
  fingerprint: string | null;
  /** Candidates that came before their description. */
  pending: CallIceCandidate[];
  /** Carries their microphone and camera state, end to end (DTLS). */
  channel: RTCDataChannel | null;
  view: GroupCallPeer;
  reconnecting: ReturnType<typeof setTimeout> | null;
}

interface Group {
  state: Omit<GroupCallState, 'peers'>;
  /** The group's members, as its signed chain says. */
  members: string[];
  /** The others known to be in the call. */
  roster: Set<string>;
  peers: Map<string, Peer>;
  iceConfig: RTCConfiguration | undefined;
  timers: ReturnType<typeof setTimeout>[];
  /** Switching devices and sharing the screen, on every connection at once. */
  outgoing: OutgoingMedia;
}

let me: string | null = null;
let isBlocked: (userId: string) => boolean = () => false;
let group: Group | null = null;
/** Signals leave in the order they were made: an offer before its candidates. */
let sending: Promise<unknown> = Promise.resolve();

export const startGroupCalls = (accountId: string, blocked: (userId: string) => boolean): void => {
  me = accountId;
  isBlocked = blocked;
};

export const stopGroupCalls = (): void => {
  leaveGroupCall();
  me = null;
};

export const inGroupCall = (): boolean => group !== null;

const publish = (current: Group) => {
  if (group !== current) return;
  const peers = [...current.peers.values()]
    .map((peer) => peer.view)
    .sort((a, b) => (a.userId < b.userId ? -1 : 1));
  setCallsView({ group: { ...current.state, peers } });
};

const set = (current: Group, change: Partial<Group['state']>) => {
  current.state = { ...current.state, ...change };
  publish(current);
};

const later = (current: Group, ms: number, work: () => void) => {
  current.timers.push(setTimeout(work, ms));
};

/** Everyone in the call as this browser knows it, itself included once it is in. */
const rosterOf = (current: Group): string[] =>
  [...(current.state.phase === 'incoming' || !me ? [] : [me]), ...current.roster].sort();

/** A refill of the gateway's per-socket bucket of call signals (10 a second). */
const refillMs = 120;

/**
 * Sends again while the gateway says the socket's burst is spent: ringing a large group is one
 * invite per member, more than the burst of 60 lets through at once.
 */
const paced = async (sendOnce: () => Promise<void>): Promise<void> => {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await sendOnce();
    } catch (error) {
      if (!(error instanceof CallSignalError) || error.code !== 'RATE_LIMITED' || attempt >= 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, refillMs));
    }
  }
};

const send = (
  current: Group,
  to: string,
  kind: CallSignalKind,
  extra: Partial<CallSignalBody> = {},
): Promise<void> => {
  if (!me) return Promise.resolve();
  const body: CallSignalBody = {
    kind,
    from: me,
    to,
    chatId: current.state.chatId,
    callId: current.state.callId,
    media: current.state.media,
    sentAt: new Date().toISOString(),
    group: { participants: rosterOf(current) },
    ...extra,
  };
  const sent = sending.then(() => paced(() => sendCallSignal(body)));
  sending = sent.catch(() => undefined);
  return sent;
};

const sendQuietly = (current: Group, to: string, kind: CallSignalKind, extra: Partial<CallSignalBody> = {}) =>
  void send(current, to, kind, extra).catch((error: unknown) =>
    console.warn(`Could not send a group call ${kind}`, error),
  );

/** A signal from someone the group's signed membership does not hold: refused with the warning. */
const refuse = (body: CallSignalBody) =>
  setCallsView({
    refused: { peerId: body.from, chatId: body.chatId, at: Date.now(), reason: 'not-a-member' },
  });

const closePeer = (peer: Peer) => {
  if (peer.reconnecting) clearTimeout(peer.reconnecting);
  peer.channel?.close();
  peer.pc.close();
};

/** Leaves this browser's group call (or stops its ringing), telling the group when it was in. */
const finish = (end: CallEnd) => {
  const current = group;
  if (!current) return;
  const wasIn = current.state.phase === 'connecting' || current.state.phase === 'active';
  for (const timer of current.timers) clearTimeout(timer);
  for (const peer of current.peers.values()) closePeer(peer);
  current.outgoing.close();
  stopMedia(current.state.localStream);
  group = null;
  const { callId, chatId } = current.state;
  const remaining = [...current.roster].sort();
  if (wasIn) {
    // Every member hears it: those in the call drop the connection, the others learn who is left.
    for (const member of current.members)
      if (member !== me) sendQuietly(current, member, 'hangup', { group: { participants: remaining } });
    const ongoing = callsView().ongoing[chatId];
    if (ongoing?.callId === callId)
      setOngoingGroupCall(chatId, remaining.length ? { ...ongoing, participants: remaining } : null);
  } else if (end === 'declined') {
    // The caller carries on; this account's other browsers stop ringing.
    sendQuietly(current, current.state.callerId, 'decline');
  }
  setCallsView({
    group: { ...current.state, phase: 'ended', end, endedAt: Date.now(), localStream: null, peers: [] },
  });
  setTimeout(() => {
    if (callsView().group?.callId === callId && callsView().group?.phase === 'ended')
      setCallsView({ group: null });
  }, endShownMs);
};

/** One participant is gone: their connection closes; alone after others were there, the call ends. */
const dropPeer = (current: Group, userId: string) => {
  const peer = current.peers.get(userId);
  if (peer) closePeer(peer);
  current.peers.delete(userId);
  current.roster.delete(userId);
  publish(current);
  if (group === current && current.state.phase === 'active' && current.peers.size === 0) finish('call-over');
};

const shareOwnState = (current: Group) => {
  const state = JSON.stringify({ muted: current.state.muted, cameraOff: current.state.cameraOff });
  for (const peer of current.peers.values())
    if (peer.channel?.readyState === 'open') peer.channel.send(state);
};

const attachChannel = (current: Group, peer: Peer, channel: RTCDataChannel) => {
  peer.channel = channel;
  channel.onopen = () => shareOwnState(current);
  channel.onmessage = (event: MessageEvent) => {
    try {
      const said = JSON.parse(String(event.data)) as { muted?: unknown; cameraOff?: unknown };
      peer.view = { ...peer.view, muted: said.muted === true, cameraOff: said.cameraOff === true };
      publish(current);
    } catch {
      // Not a state: ignored.
    }
  };
};

/** A connection that did not hold to the certificate signed for it: closed, with the warning. */
const refuseConnection = (current: Group, userId: string) => {
  dropPeer(current, userId);
  setCallsView({
    refused: { peerId: userId, chatId: current.state.chatId, at: Date.now(), reason: 'signature' },
  });
};

const connected = async (current: Group, userId: string, peer: Peer) => {
  // The certificate met must be the one they signed, as in a one-to-one call.
  if (!peer.fingerprint || !(await certificateHolds(peer.pc, peer.fingerprint))) {
    if (current.peers.get(userId) === peer) refuseConnection(current, userId);
    return;
  }
  if (group !== current || current.peers.get(userId) !== peer) return;
  if (peer.reconnecting) clearTimeout(peer.reconnecting);
  peer.reconnecting = null;
  peer.view = { ...peer.view, connected: true };
  set(current, {
    phase: 'active',
    connectedAt: current.state.connectedAt ?? Date.now(),
    joined: current.state.joined.includes(userId) ? current.state.joined : [...current.state.joined, userId],
  });
};

/** A connection with `userId`, registered before anything is awaited (so none is made twice). */
const peerFor = (current: Group, userId: string, offering: boolean): Peer => {
  const pc = new RTCPeerConnection(current.iceConfig);
  const stream = current.state.localStream;
  for (const track of stream?.getTracks() ?? []) if (stream) pc.addTrack(track, stream);
  const peer: Peer = {
    pc,
    offered: offering,
    fingerprint: null,
    pending: [],
    channel: null,
    view: { userId, connected: false, stream: null, muted: false, cameraOff: false },
    reconnecting: null,
  };
  current.peers.set(userId, peer);
  current.roster.add(userId);
  if (offering) attachChannel(current, peer, pc.createDataChannel('state'));
  else pc.ondatachannel = (event) => attachChannel(current, peer, event.channel);
  const remote = new MediaStream();
  pc.ontrack = (event) => {
    remote.addTrack(event.track);
    peer.view = { ...peer.view, stream: remote };
    publish(current);
  };
  const mine = () => group === current && current.peers.get(userId) === peer;
  pc.onicecandidate = (event) => {
    if (!event.candidate || !mine()) return;
    const { candidate, sdpMid, sdpMLineIndex } = event.candidate;
    sendQuietly(current, userId, 'ice', { candidate: { candidate, sdpMid, sdpMLineIndex } });
  };
  pc.onconnectionstatechange = () => {
    if (!mine()) return;
    const state = pc.connectionState;
    if (state === 'connected') void connected(current, userId, peer);
    else if (state === 'disconnected' || state === 'failed') {
      const wasUp = peer.view.connected;
      // One that never connected is given up; one that was up gets the grace and ICE restarts.
      if (!wasUp && state === 'failed') return dropPeer(current, userId);
      if (peer.reconnecting) return;
      peer.reconnecting = setTimeout(() => {
        if (mine() && pc.connectionState !== 'connected') dropPeer(current, userId);
      }, reconnectMs);
      if (!wasUp) return;
      peer.view = { ...peer.view, connected: false };
      publish(current);
      keepRestarting(current, userId, peer);
    }
  };
  publish(current);
  return peer;
};

/**
 * A pair's connection dropped: the side that offered it restarts ICE, now and every few seconds
 * until it is back or dropped (docs/calls.md, "Reconnecting"); the other side answers.
 */
const keepRestarting = (current: Group, userId: string, peer: Peer) => {
  if (group !== current || current.peers.get(userId) !== peer || !peer.reconnecting) return;
  restartPeer(current, userId, peer);
  later(current, restartEveryMs, () => keepRestarting(current, userId, peer));
};

/** An ICE restart of one pair, by the side that offered it, never over an offer still unanswered. */
const restartPeer = (current: Group, userId: string, peer: Peer) => {
  if (!peer.offered || peer.pc.signalingState !== 'stable') return;
  void restartOffer(peer.pc)
    .then((description) => send(current, userId, 'offer', description))
    .catch((error: unknown) => console.warn('Could not restart a participant’s connection', error));
};

/** The network changed: restart every connection this side offered, not waiting for a drop. */
export const restartGroupConnections = (): void => {
  const current = group;
  if (current?.state.phase !== 'active') return;
  for (const [userId, peer] of current.peers) if (peer.view.connected) restartPeer(current, userId, peer);
};

/** Answers an ICE restart of the connection with `body.from`, if it names the certificate signed before. */
const answerRestart = async (current: Group, peer: Peer, body: CallSignalBody) => {
  if (!sameCertificate(peer.fingerprint, body.fingerprint)) return refuseConnection(current, body.from);
  await peer.pc.setRemoteDescription({ type: 'offer', sdp: body.sdp ?? '' });
  await send(current, body.from, 'answer', await localDescription(peer.pc, 'answer'));
};

const addCandidate = async (peer: Peer, candidate: CallIceCandidate) => {
  if (!peer.pc.remoteDescription) {
    peer.pending.push(candidate);
    return;
  }
  await peer.pc.addIceCandidate(candidate).catch((error: unknown) => console.warn('A bad candidate', error));
};

const flushCandidates = async (peer: Peer) => {
  for (const candidate of peer.pending.splice(0)) await addCandidate(peer, candidate);
};

/** Joins as the newcomer: offers to `userId`, already in the call. */
const offerTo = async (current: Group, userId: string) => {
  if (group !== current || userId === me || current.peers.has(userId)) return;
  if (!current.members.includes(userId) || current.peers.size >= groupCallLimit - 1) return;
  const peer = peerFor(current, userId, true);
  try {
    await send(current, userId, 'offer', await localDescription(peer.pc, 'offer'));
  } catch (error) {
    console.warn('Could not offer to a participant', error);
    if (current.peers.get(userId) === peer) dropPeer(current, userId);
  }
};

/** Opens this browser's media and connects to everyone in the call. */
const join = async (current: Group, media: CallMedia) => {
  if (current.roster.size >= groupCallLimit) {
    finish('full');
    return;
  }
  set(current, { phase: 'connecting', media });
  try {
    const stream = await openLocalMedia(media);
    if (group !== current) return stopMedia(stream);
    set(current, { localStream: stream });
    current.iceConfig = await fetchIceConfig();
    for (const userId of [...current.roster]) await offerTo(current, userId);
    later(current, reachMs, () => {
      if (group === current && current.state.connectedAt === null) finish('call-over');
    });
  } catch (error) {
    if (group === current) finish(endForError(error));
  }
};

const groupOf = (
  call: Pick<GroupCallState, 'callId' | 'chatId' | 'callerId' | 'media' | 'direction' | 'phase'>,
  members: string[],
  roster: Iterable<string>,
): Group => {
  const made: Group = {
    state: {
      ...call,
      ...callStartsWith,
      joined: me ? [me] : [],
    },
    members,
    roster: new Set([...roster].filter((id) => id !== me && members.includes(id))),
    peers: new Map(),
    iceConfig: undefined,
    timers: [],
    outgoing: outgoingMedia({
      state: () => (group === made ? made.state : null),
      connections: () => (group === made ? [...made.peers.values()].map((peer) => peer.pc) : []),
      update: (change) => {
        if (group !== made) return;
        set(made, change);
        if ('cameraOff' in change) shareOwnState(made);
      },
    }),
  };
  return made;
};

/** Starts a group call in `chatId`: opens the microphone (and camera), then rings every member. */
export const startGroupCall = async (chatId: string, media: CallMedia): Promise<void> => {
  if (!me || busyWithACall()) return;
  const self = me;
  const callId = newCallId();
  const current = groupOf(
    { callId, chatId, callerId: self, media, direction: 'outgoing', phase: 'connecting' },
    [],
    [],
  );
  group = current;
  publish(current);
  try {
    const members = await groupCallMembers(self, chatId);
    if (!members) throw new Error('Not a group of this account');
    current.members = members;
    const stream = await openLocalMedia(media);
    if (group !== current) return stopMedia(stream);
    set(current, { localStream: stream });
    current.iceConfig = await fetchIceConfig();
    setOngoingGroupCall(chatId, { callId, chatId, callerId: self, media, participants: [self] });
    let rang = 0;
    let failure: unknown = null;
    for (const member of members.filter((id) => id !== self)) {
      await send(current, member, 'invite').then(
        () => (rang += 1),
        (error: unknown) => (failure ??= error),
      );
    }
    if (rang === 0 && failure) throw failure;
    later(current, ringMs + reachMs, () => {
      if (group === current && current.state.connectedAt === null) finish('no-answer');
    });
  } catch (error) {
    if (group === current) finish(endForError(error));
  }
};

/** Joins the ringing group call, with the camera for `media: 'video'`. */
export const acceptGroupCall = (media: CallMedia): void => {
  if (group?.state.phase === 'incoming') void join(group, media);
};

export const declineGroupCall = (): void => {
  if (group?.state.phase === 'incoming') finish('declined');
};

/** Joins the group call going on in `chatId` (the group's "Join" button). */
export const joinGroupCall = async (chatId: string, media: CallMedia): Promise<void> => {
  const ongoing = callsView().ongoing[chatId];
  if (!me || !ongoing || (busyWithACall() && group?.state.phase !== 'incoming')) return;
  if (group) finish('hung-up');
  const members = await groupCallMembers(me, chatId).catch(() => null);
  if (!members || group) return;
  const current = groupOf(
    {
      callId: ongoing.callId,
      chatId,
      callerId: ongoing.callerId,
      media: ongoing.media,
      direction: 'incoming',
      phase: 'incoming',
    },
    members,
    ongoing.participants,
  );
  group = current;
  await join(current, media);
};

export const leaveGroupCall = (): void => {
  if (group) finish(group.state.phase === 'incoming' ? 'declined' : 'hung-up');
};

export const toggleGroupMute = (): void => {
  if (!group) return;
  const muted = !group.state.muted;
  for (const track of group.state.localStream?.getAudioTracks() ?? []) track.enabled = !muted;
  set(group, { muted });
  shareOwnState(group);
};

export const toggleGroupCamera = (): void => {
  if (!group) return;
  const cameraOff = !group.state.cameraOff;
  for (const track of group.state.localStream?.getVideoTracks() ?? []) track.enabled = !cameraOff;
  set(group, { cameraOff });
  shareOwnState(group);
};

export const switchGroupCallInput = (kind: 'audio' | 'video', deviceId: string): Promise<void> =>
  group?.outgoing.switchInput(kind, deviceId) ?? Promise.resolve();

export const shareGroupScreen = (): Promise<void> => group?.outgoing.shareScreen() ?? Promise.resolve();

export const stopSharingGroupScreen = (): Promise<void> => group?.outgoing.stopSharing() ?? Promise.resolve();

/** Dismisses an ended group call. */
export const dismissGroupCall = (): void => {
  if (callsView().group?.phase === 'ended') setCallsView({ group: null });
};

/** An invite: note the call going on, and ring unless in a call already or the caller is blocked. */
const onInvite = async (body: CallSignalBody) => {
  if (!me) return;
  const members = await groupCallMembers(me, body.chatId).catch(() => null);
  if (!members) return;
  if (!members.includes(body.from)) return refuse(body);
  const participants = [...new Set([body.from, ...(body.group?.participants ?? [])])].filter((id) =>
    members.includes(id),
  );
  setOngoingGroupCall(body.chatId, {
    callId: body.callId,
    chatId: body.chatId,
    callerId: body.from,
    media: body.media,
    participants,
  });
  if (isBlocked(body.from) || busyWithACall() || group) return;
  const current = groupOf(
    {
      callId: body.callId,
      chatId: body.chatId,
      callerId: body.from,
      media: body.media,
      direction: 'incoming',
      phase: 'incoming',
    },
    members,
    participants,
  );
  group = current;
  publish(current);
  later(current, ringMs, () => {
    if (group === current && current.state.phase === 'incoming') finish('missed');
  });
};

/** An offer from a newcomer: answer it, telling them who else is in. */
const onOffer = async (current: Group, body: CallSignalBody) => {
  if (!me || (current.state.phase !== 'connecting' && current.state.phase !== 'active')) return;
  if (!current.members.includes(body.from)) {
    // Someone added to the group since the call began is let in once the chain says so.
    const fresh = await groupCallMembers(me, body.chatId).catch(() => null);
    if (fresh) current.members = fresh;
    if (!fresh?.includes(body.from)) return refuse(body);
  }
  if (group !== current) return;
  const existing = current.peers.get(body.from);
  // The same connection offered again: an ICE restart, not a newcomer.
  if (existing && !existing.offered && sameSession(existing.pc.remoteDescription?.sdp, body.sdp))
    return answerRestart(current, existing, body);
  if (existing) {
    // Both offered at once: the offer of the one whose id sorts first stands.
    if (existing.offered && !existing.pc.remoteDescription && me < body.from) return;
    closePeer(existing);
    current.peers.delete(body.from);
  }
  if (current.peers.size >= groupCallLimit - 1) return sendQuietly(current, body.from, 'busy');
  const peer = peerFor(current, body.from, false);
  peer.fingerprint = body.fingerprint ?? null;
  try {
    await peer.pc.setRemoteDescription({ type: 'offer', sdp: body.sdp ?? '' });
    await flushCandidates(peer);
    await send(current, body.from, 'answer', await localDescription(peer.pc, 'answer'));
  } catch (error) {
    console.warn('Could not answer a participant', error);
    if (current.peers.get(body.from) === peer) dropPeer(current, body.from);
  }
};

/** An answer to this newcomer's offer: connect, and offer to those in the call not met yet. */
const onAnswer = async (current: Group, body: CallSignalBody) => {
  const peer = current.peers.get(body.from);
  if (!peer?.offered) return;
  if (peer.pc.remoteDescription) {
    // The answer to an ICE restart this side offered.
    if (peer.pc.signalingState !== 'have-local-offer') return;
    if (!sameCertificate(peer.fingerprint, body.fingerprint)) return refuseConnection(current, body.from);
    return peer.pc.setRemoteDescription({ type: 'answer', sdp: body.sdp ?? '' });
  }
  peer.fingerprint = body.fingerprint ?? null;
  await peer.pc.setRemoteDescription({ type: 'answer', sdp: body.sdp ?? '' });
  await flushCandidates(peer);
  for (const userId of body.group?.participants ?? []) await offerTo(current, userId);
};

/** Someone left: drop their connection; the group's "Join" learns who is left. */
const onHangup = (body: CallSignalBody) => {
  const remaining = (body.group?.participants ?? []).filter((id) => id !== body.from);
  const ongoing = callsView().ongoing[body.chatId];
  if (ongoing?.callId === body.callId && ongoing.participants.includes(body.from))
    setOngoingGroupCall(body.chatId, remaining.length ? { ...ongoing, participants: remaining } : null);
  const current = group;
  if (current?.state.callId !== body.callId) return;
  if (current.state.phase === 'incoming') {
    current.roster = new Set(remaining.filter((id) => current.members.includes(id)));
    if (current.roster.size === 0) finish('missed');
    return;
  }
  if (current.peers.has(body.from)) dropPeer(current, body.from);
  else current.roster.delete(body.from);
};

/** A signal of this account's other browser: stop ringing when it joined or declined. */
const onOwnSignal = (body: CallSignalBody) => {
  if (group?.state.callId !== body.callId || group.state.phase !== 'incoming') return;
  if (body.kind === 'offer') finish('answered-elsewhere');
  else if (body.kind === 'decline') finish('declined-elsewhere');
};

/** A checked group call signal (its signature, sealing and freshness held: `call-signals.ts`). */
export const groupCallSignal = async (body: CallSignalBody): Promise<void> => {
  if (!me) return;
  if (body.from === me) return onOwnSignal(body);
  if (body.to !== me) return;
  if (body.kind === 'invite') return onInvite(body);
  if (body.kind === 'hangup') return onHangup(body);
  const current = group;
  if (current?.state.callId !== body.callId) return;
  switch (body.kind) {
    case 'offer':
      return onOffer(current, body);
    case 'answer':
      return onAnswer(current, body);
    case 'ice': {
      const peer = current.peers.get(body.from);
      if (peer && body.candidate) await addCandidate(peer, body.candidate);
      return;
    }
    case 'busy':
      // The one offered to holds as many connections as a call can: the call is full.
      if (current.peers.get(body.from)?.offered && current.state.connectedAt === null) finish('full');
      else if (current.peers.has(body.from)) dropPeer(current, body.from);
      return;
    default:
      return;
  }
};
