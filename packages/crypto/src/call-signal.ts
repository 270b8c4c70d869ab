import { base64ToBytes, bytesToBase64 } from './base64.ts';
import { utf8 } from './digest.ts';
import { encryptMessage, readMessage } from './envelope.ts';
import { keyMapSummaryOf } from './message-signature.ts';
import { importSigningPublicKeySpkiBase64 } from './signing-key.ts';

/**
 * Call signalling sealed and signed end to end (docs/calls.md). Every signal (an offer, an
 * answer, an ICE candidate, or call control) is encrypted like a message, for the two people of
 * the call, and signed with the sender's identity signing key over its ciphertext, the wrapped
 * keys and its routing: who sends it, to whom, in which chat, for which call. The server relays it
 * and can change nothing in it, nor make one, nor pass one off as from someone else.
 *
 * Offers and answers carry the DTLS certificate fingerprint of the sender's peer connection,
 * signed with the rest; the other side checks it against the SDP it was given and against the
 * certificate its connection actually meets, so a server that put itself between the two
 * connections would be seen.
 */
export type CallSignalKind =
  /** The callee's browser has the offer and rings: the caller can say "Ringing". */
  | 'ringing'
  | 'offer'
  | 'answer'
  | 'ice'
  | 'decline'
  /** The callee is already in a call. */
  | 'busy'
  | 'hangup'
  /** A group call: a member started it and rings the others (docs/calls.md, "Group calls"). */
  | 'invite';

export const callSignalKinds: readonly CallSignalKind[] = [
  'ringing',
  'offer',
  'answer',
  'ice',
  'decline',
  'busy',
  'hangup',
  'invite',
];

export type CallMedia = 'audio' | 'video';

/** Where a signal goes, as the server routes it; signed, and repeated inside the ciphertext. */
export interface CallRouting {
  from: string;
  to: string;
  chatId: string;
  callId: string;
}

export interface CallIceCandidate {
  candidate: string;
  sdpMid: string | null;
  sdpMLineIndex: number | null;
}

/** What a signal says, inside the ciphertext. */
export interface CallSignalBody extends CallRouting {
  kind: CallSignalKind;
  media: CallMedia;
  /** When the sender made it (ISO 8601): a signal much older or newer is refused (replays). */
  sentAt: string;
  /** Offer and answer: the session description. */
  sdp?: string;
  /** Offer and answer: the sender's DTLS certificate fingerprint (`sha-256 AB:CD:…`). */
  fingerprint?: string;
  /** `ice`: one candidate. */
  candidate?: CallIceCandidate;
  /** A group call's signal: who the sender knows to be in the call (signed with the rest). */
  group?: GroupCallRoster;
}

export interface GroupCallRoster {
  participants: string[];
}

/** More ids than any call holds: a roster longer than this is out of shape. */
const rosterMaxIds = 64;

export interface SealedCallSignal {
  ciphertext: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  signature: string;
}

/** How far a signal's time may be from the reader's clock. */
export const callSignalWindowMs = 2 * 60_000;

const ecdsaSha256 = { name: 'ECDSA', hash: 'SHA-256' } as const;

/**
 * One field a line, in a fixed order, under a first line no other signature in Veil uses: the
 * routing, the ciphertext and iv, and the wrapped keys as their member ids and digest. Ids and
 * base64 hold no line break; anything that does is refused, so no two signals encode alike.
 */
export const callSignalBytes = async (
  routing: CallRouting,
  sealed: Omit<SealedCallSignal, 'signature'>,
): Promise<Uint8Array<ArrayBuffer>> => {
  const { members, digest } = await keyMapSummaryOf(sealed.encryptedKeys);
  const fields = [
    'veil call signal 1',
    routing.from,
    routing.to,
    routing.chatId,
    routing.callId,
    sealed.ciphertext,
    sealed.iv,
    members.join(','),
    digest,
  ];
  if (fields.some((field) => typeof field !== 'string' || /[\r\n]/.test(field)))
    throw new TypeError('A call signal field is missing or holds a line break');
  return utf8(fields.join('\n'));
};

/**
 * Seals `body` for its two parties (`recipients`: their encryption keys, by user id) and signs it
 * with the sender's signing key.
 */
export const sealCallSignal = async (
  body: CallSignalBody,
  recipients: Record<string, CryptoKey>,
  signingKey: CryptoKey,
): Promise<SealedCallSignal> => {
  const envelope = await encryptMessage(JSON.stringify(body), recipients);
  const sealed = { ciphertext: envelope.content, iv: envelope.iv, encryptedKeys: envelope.encryptedKeys };
  const signature = await crypto.subtle.sign(ecdsaSha256, signingKey, await callSignalBytes(body, sealed));
  return { ...sealed, signature: bytesToBase64(new Uint8Array(signature)) };
};

/** Whether `signature` is the holder of `signingPublicKey` (base64 SPKI) signing this signal. */
export const verifyCallSignalSignature = async (
  signingPublicKey: string,
  routing: CallRouting,
  sealed: SealedCallSignal,
): Promise<boolean> => {
  try {
    const key = await importSigningPublicKeySpkiBase64(signingPublicKey);
    const signature = base64ToBytes(sealed.signature);
    if (signature.length !== 64) return false;
    return await crypto.subtle.verify(ecdsaSha256, key, signature, await callSignalBytes(routing, sealed));
  } catch {
    return false;
  }
};

/**
 * Why a signal is refused:
 * - `bad-signature`: not signed by the sender's current signing key over what arrived (changed on
 *   the way, made by someone else, or passed off as from someone else);
 * - `unreadable`: not sealed for the reader, or damaged;
 * - `mismatch`: what the ciphertext says differs from the signed routing, or is out of shape;
 * - `stale`: made too long ago, or in the future (a replay);
 * - `fingerprint`: an offer or answer whose signed fingerprint is not the one in its SDP.
 */
export type CallSignalFailure = 'bad-signature' | 'unreadable' | 'mismatch' | 'stale' | 'fingerprint';

export type CallSignalOpening =
  { ok: true; body: CallSignalBody } | { ok: false; failure: CallSignalFailure };

const isString = (value: unknown): value is string => typeof value === 'string';

const candidateOf = (value: unknown): CallIceCandidate | undefined => {
  const c = value as Partial<CallIceCandidate> | null | undefined;
  if (!c || !isString(c.candidate)) return undefined;
  return {
    candidate: c.candidate,
    sdpMid: isString(c.sdpMid) ? c.sdpMid : null,
    sdpMLineIndex: Number.isSafeInteger(c.sdpMLineIndex) ? (c.sdpMLineIndex as number) : null,
  };
};

const rosterOf = (value: unknown): GroupCallRoster | null | undefined => {
  if (value === undefined) return undefined;
  const participants = (value as Partial<GroupCallRoster> | null)?.participants;
  if (!Array.isArray(participants) || participants.length > rosterMaxIds || !participants.every(isString))
    return null;
  return { participants: [...new Set(participants)] };
};

/** The body as read, if it has the shape of one and names exactly the signed routing. */
const bodyOf = (text: string, routing: CallRouting): CallSignalBody | null => {
  let raw: Partial<CallSignalBody>;
  try {
    raw = JSON.parse(text) as Partial<CallSignalBody>;
  } catch {
    return null;
  }
  if (
    raw.from !== routing.from ||
    raw.to !== routing.to ||
    raw.chatId !== routing.chatId ||
    raw.callId !== routing.callId ||
    !callSignalKinds.includes(raw.kind as CallSignalKind) ||
    (raw.media !== 'audio' && raw.media !== 'video') ||
    !isString(raw.sentAt)
  )
    return null;
  const candidate = candidateOf(raw.candidate);
  const group = rosterOf(raw.group);
  if (group === null) return null;
  return {
    ...routing,
    kind: raw.kind as CallSignalKind,
    media: raw.media,
    sentAt: raw.sentAt,
    ...(isString(raw.sdp) && { sdp: raw.sdp }),
    ...(isString(raw.fingerprint) && { fingerprint: raw.fingerprint }),
    ...(candidate && { candidate }),
    ...(group && { group }),
  };
};

/**
 * Checks and reads a signal for `readerId`: the signature against the sender's signing key (from
 * the sender's checked key log: the caller's business), then the ciphertext with the reader's
 * private keys, then that it says what was signed, is fresh, and that an offer's or answer's
 * signed fingerprint is the one in its SDP. Never throws.
 */
export const openCallSignal = async (input: {
  routing: CallRouting;
  sealed: SealedCallSignal;
  senderSigningKey: string | null;
  readerId: string;
  privateKeys: readonly CryptoKey[];
  now: number;
}): Promise<CallSignalOpening> => {
  const { routing, sealed } = input;
  if (!input.senderSigningKey || !(await verifyCallSignalSignature(input.senderSigningKey, routing, sealed)))
    return { ok: false, failure: 'bad-signature' };
  const reading = await readMessage(
    { content: sealed.ciphertext, iv: sealed.iv, encryptedKeys: sealed.encryptedKeys },
    input.readerId,
    input.privateKeys,
  );
  if (!reading.ok) return { ok: false, failure: 'unreadable' };
  const body = bodyOf(reading.text, routing);
  if (!body) return { ok: false, failure: 'mismatch' };
  const sentAt = Date.parse(body.sentAt);
  if (!Number.isFinite(sentAt) || Math.abs(input.now - sentAt) > callSignalWindowMs)
    return { ok: false, failure: 'stale' };
  if (body.kind === 'offer' || body.kind === 'answer') {
    const inSdp = body.sdp === undefined ? null : sdpFingerprint(body.sdp);
    if (!inSdp || !body.fingerprint || !sameFingerprint(inSdp, body.fingerprint))
      return { ok: false, failure: 'fingerprint' };
  }
  return { ok: true, body };
};

/**
 * The DTLS certificate fingerprint an SDP names (`a=fingerprint:<algorithm> <hex>`), as
 * `<algorithm> <HEX>`; null when it names none, or more than one that differ.
 */
export const sdpFingerprint = (sdp: string): string | null => {
  const found = new Set<string>();
  for (const line of sdp.split(/\r?\n/)) {
    const match = /^a=fingerprint:(\S+) ([0-9A-Fa-f:]+)\s*$/.exec(line);
    if (match) found.add(normalizeFingerprint(`${match[1]} ${match[2]}`));
  }
  return found.size === 1 ? [...found][0]! : null;
};

/** `sha-256 ab:cd` and `SHA-256 AB:CD` alike. */
export const normalizeFingerprint = (fingerprint: string): string => {
  const [algorithm = '', value = ''] = fingerprint.trim().split(/\s+/);
  return `${algorithm.toLowerCase()} ${value.toUpperCase()}`;
};

export const sameFingerprint = (a: string, b: string): boolean =>
  normalizeFingerprint(a) === normalizeFingerprint(b);
