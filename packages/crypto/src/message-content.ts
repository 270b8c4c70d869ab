import type { AttachmentKey } from './attachment.ts';
import { sanitizeMentions, type MessageMention } from './mentions.ts';

/**
 * What a message's plaintext holds. Version 1 (the seed contract's) is the text alone. Version 2 adds
 * attachments: the plaintext is a marker line, `\u0000veil:2\n`, followed by JSON. A text
 * without the marker is read as version 1, so every message sent before attachments still
 * reads; a text that itself starts with NUL is always sent as version 2, so it cannot be
 * mistaken for the marker.
 */
export interface AttachmentThumbnail {
  /** A small JPEG made in the sender's browser, base64. */
  jpeg: string;
  width: number;
  height: number;
}

export interface AttachmentRef extends AttachmentKey {
  /** The opaque id the server stores the encrypted chunks under. */
  blobId: string;
  name: string;
  /** The MIME type the sender's browser gave the file ('' when unknown). */
  type: string;
  thumbnail?: AttachmentThumbnail;
}

/**
 * A call's entry in the timeline, sent by the caller's browser when the call ends: its media and
 * how long it lasted, or null when it was never answered (a missed call).
 */
export interface CallRecord {
  media: 'audio' | 'video';
  seconds: number | null;
  /** A group call's entry: who took part while its caller was in it (the others missed it). */
  group?: { joined: string[] };
}

export interface MessageContent {
  text: string;
  attachments: AttachmentRef[];
  /** Sent on from another chat: said inside the ciphertext, so the server never knows. */
  forwarded?: boolean;
  /** The message is a call's entry (docs/calls.md): said inside the ciphertext too. */
  call?: CallRecord;
  /**
   * The message's franking key (base64, `franking.ts`): only members hold it, and a member who
   * reports the message hands it to the server with the text.
   */
  franking?: string;
  /** Members named in the text (`mentions.ts`): said inside the ciphertext, so the server never knows who. */
  mentions?: MessageMention[];
}

const marker = '\u0000veil:2\n';

export const encodeMessageContent = ({
  text,
  attachments,
  forwarded,
  franking,
  call,
  mentions = [],
}: MessageContent): string =>
  attachments.length === 0 &&
  !forwarded &&
  !franking &&
  !call &&
  mentions.length === 0 &&
  !text.startsWith('\u0000')
    ? text
    : `${marker}${JSON.stringify({
        text,
        attachments,
        ...(forwarded && { forwarded: true }),
        ...(franking && { franking }),
        ...(call && { call }),
        ...(mentions.length > 0 && { mentions }),
      })}`;

const isString = (value: unknown): value is string => typeof value === 'string';
const isSize = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

const thumbnailOf = (value: unknown): AttachmentThumbnail | undefined => {
  const t = value as Partial<AttachmentThumbnail> | undefined;
  return t && isString(t.jpeg) && isSize(t.width) && isSize(t.height)
    ? { jpeg: t.jpeg, width: t.width, height: t.height }
    : undefined;
};

const attachmentOf = (value: unknown): AttachmentRef | null => {
  const a = value as Partial<AttachmentRef> | null;
  if (!a || !isString(a.blobId) || !isString(a.key) || !isString(a.noncePrefix) || !isSize(a.size))
    return null;
  const thumbnail = thumbnailOf(a.thumbnail);
  return {
    blobId: a.blobId,
    key: a.key,
    noncePrefix: a.noncePrefix,
    size: a.size,
    name: isString(a.name) ? a.name : 'file',
    type: isString(a.type) ? a.type : '',
    ...(thumbnail && { thumbnail }),
  };
};

const callRecordOf = (value: unknown): CallRecord | undefined => {
  const c = value as Partial<CallRecord> | null | undefined;
  if (!c || (c.media !== 'audio' && c.media !== 'video')) return undefined;
  const joined = (c.group as { joined?: unknown } | undefined)?.joined;
  return {
    media: c.media,
    seconds: isSize(c.seconds) ? c.seconds : null,
    ...(Array.isArray(joined) && { group: { joined: joined.filter(isString) } }),
  };
};

/** Reads a decrypted plaintext of either version; a version 2 body that does not parse reads as its raw text. */
export const decodeMessageContent = (plaintext: string): MessageContent => {
  if (!plaintext.startsWith(marker)) return { text: plaintext, attachments: [] };
  try {
    const body = JSON.parse(plaintext.slice(marker.length)) as {
      text?: unknown;
      attachments?: unknown;
      forwarded?: unknown;
      call?: unknown;
      franking?: unknown;
      mentions?: unknown;
    };
    const call = callRecordOf(body.call);
    const text = isString(body.text) ? body.text : '';
    const mentions = sanitizeMentions(body.mentions, text);
    const attachments = Array.isArray(body.attachments) ? body.attachments.map(attachmentOf) : [];
    return {
      text,
      attachments: attachments.filter((a): a is AttachmentRef => a !== null),
      ...(body.forwarded === true && { forwarded: true }),
      ...(call && { call }),
      ...(isString(body.franking) && { franking: body.franking }),
      ...(mentions.length > 0 && { mentions }),
    };
  } catch {
    return { text: plaintext.slice(marker.length), attachments: [] };
  }
};
