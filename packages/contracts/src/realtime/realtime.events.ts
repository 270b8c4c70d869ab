import type { MessageSignature, MessageView, SealedReaction } from '../http/schemas.ts';
import type {
  SocketDeletePayload,
  SocketEditPayload,
  SocketReactPayload,
  SocketSendPayload,
  SocketUnreactPayload,
} from './socket-payloads.schemas.ts';
import type { ErrorBody } from '../errors.ts';
import type {
  LinkClosedReason,
  LinkJoined,
  LinkOpenRequest,
  LinkOpened,
  LinkRef,
  LinkRelayRequest,
} from './link.schemas.ts';
import type { CallPushedNotice, CallSignalDelivery, CallSignalRequest } from './call.schemas.ts';

/**
 * Socket.IO event maps (docs/realtime.md, "Events"), shared by the realtime gateway and
 * the web client. Names are as docs/realtime.md lists them, spaces included.
 *
 * Identity never comes from these payloads: the gateway takes the user id from the handshake
 * token. Ids a client sends (setup, set offline, message seen) are checked against it.
 */
export interface SeenReport {
  chatId: string;
  messageId: string;
  userId?: string;
}

/**
 * What the sender's ack of `send message` carries: the stored message's id, history position
 * and time. The sender already holds everything else (its text, the payload it sent, the message
 * it replied to), so the server does not send the whole message back.
 */
export type SentReceipt = Pick<MessageView, '_id' | 'seq' | 'createdAt'>;

export type Ack<T = undefined> = (reply: { ok: true; data: T } | { ok: false; error: ErrorBody }) => void;

export interface ClientToServerEvents {
  setup: (user: { _id: string }) => void;
  'join chat': (chatId: string) => void;
  'new message': (message: unknown) => void;
  /** Veil's socket send: persisted by the message service, then delivered like an HTTP send. */
  'send message': (payload: SocketSendPayload, ack: Ack<SentReceipt>) => void;
  /**
   * Changes to a stored message, as the HTTP routes make them (the same commands, checks, answers
   * and codes): an edit answers with the edited message, the others with which message changed.
   */
  'edit message': (payload: SocketEditPayload, ack: Ack<{ message: MessageView }>) => void;
  'delete message': (payload: SocketDeletePayload, ack: Ack<MessageRef>) => void;
  'react to message': (payload: SocketReactPayload, ack: Ack<MessageRef>) => void;
  'remove reaction': (payload: SocketUnreactPayload, ack: Ack<MessageRef>) => void;
  'message seen': (
    report: SeenReport | SeenReport[],
    ack?: Ack<{ marked: { chatId: string; messageId: string }[] }>,
  ) => void;
  typing: (to: string | { chatId: string }) => void;
  'stop typing': (to: { to?: string; chatId?: string } | string) => void;
  online: () => void;
  'set offline': (userId: string) => void;
  /** Linking a browser (docs/realtime.md, "Browser links"): the new browser opens, the old one joins. */
  'link open': (request: LinkOpenRequest, ack: Ack<LinkOpened>) => void;
  'link join': (request: LinkRef, ack: Ack<LinkJoined>) => void;
  'link relay': (request: LinkRelayRequest, ack: Ack) => void;
  'link close': (request: LinkRef, ack?: Ack) => void;
  /**
   * A sealed, signed call signal for another member of a chat the sender is in (docs/calls.md):
   * relayed to every browser of that member and to the sender's other browsers.
   */
  'call signal': (request: CallSignalRequest, ack: Ack) => void;
}

export interface TypingNotice {
  chatId: string;
  userId: string;
  username?: string;
}

/** What changed in a user's public profile: the new name, or the new picture's URL (null: none). */
export interface ProfileUpdate {
  _id: string;
  username?: string;
  profilePicture?: string | null;
}

/** Which message a change is about. */
export interface MessageRef {
  chatId: string;
  messageId: string;
}

export interface MessageEditedNotice extends MessageRef {
  content: string;
  iv: string;
  encryptedKeys: Record<string, string>;
  editedAt: string;
  /** The sender's signature over the edit, when signed. */
  signature?: MessageSignature;
}

export interface MessageDeletedNotice extends MessageRef {
  /** The sender's signature over the deletion, when signed. */
  signature?: MessageSignature;
}

export interface ReactionNotice extends MessageRef {
  userId: string;
  /** null: the member took their reaction back. */
  reaction: SealedReaction | null;
  /** With `reaction: null`: the member's signature over taking it back, when signed. */
  removalSignature?: MessageSignature;
}

/** When a contact's last socket went away (ISO 8601, the server's clock). */
export interface LastSeen {
  userId: string;
  at: string;
}

/** A contact went offline at `at`; `at: null`: their last-seen time is no longer shared with you. */
export interface LastSeenNotice {
  userId: string;
  at: string | null;
}

export interface ServerToClientEvents {
  'online list': (userIds: string[]) => void;
  /**
   * With every `online list`: the last-seen times of the contacts who are offline, when both
   * sides share their online state (empty otherwise). Replaces what the client knew.
   */
  'last seen list': (entries: LastSeen[]) => void;
  offline: (userId: string) => void;
  online: (userId: string) => void;
  /** After a contact's `offline`, or when one starts or stops sharing their online state. */
  'last seen': (notice: LastSeenNotice) => void;
  'message received': (payload: { message: MessageView }) => void;
  /** The user's own message, sent from any of their devices: for the others' chat lists. */
  'message sent': (payload: { message: MessageView }) => void;
  'update seen': (payload: { chatId: string; messageId: string; userId: string }) => void;
  /** A contact (or the user, on another device) renamed themselves or changed their picture. */
  'user updated': (update: ProfileUpdate) => void;
  /** The sender edited a message (to every member, the sender's other devices included). */
  'message edited': (notice: MessageEditedNotice) => void;
  /** Deleted for everyone: show the tombstone. */
  'message deleted': (notice: MessageDeletedNotice) => void;
  /** Its disappearing timer ran out: forget it and everything kept of it. */
  'message expired': (notice: MessageRef) => void;
  /** Deleted for me: sent only to the account that hid it, on every device. */
  'message hidden': (notice: MessageRef) => void;
  reaction: (notice: ReactionNotice) => void;
  /**
   * A group changed (members, admins, name, picture), or a chat's timer: fetch it again. Sent to
   * members before and after; and to one account's own sockets when it archived or pinned the chat.
   */
  'chat updated': (notice: { chatId: string }) => void;
  /** This account blocked or unblocked someone (in any of its browsers): fetch the list again. */
  'blocks updated': () => void;
  typing: (notice: TypingNotice) => void;
  'stop typing': (notice: TypingNotice) => void;
  /** To the browser that opened the link: another browser of the account joined it. */
  'link joined': (notice: LinkRef) => void;
  'link relay': (message: LinkRelayRequest) => void;
  'link closed': (notice: LinkRef & { reason: LinkClosedReason }) => void;
  /** A call signal from another member, or from this account's other browser. */
  'call signal': (signal: CallSignalDelivery) => void;
  /**
   * To the caller's browser that sent a call's signal: the callee had no browser connected and
   * was pushed instead (docs/calls.md, "Ringing through Web Push"). The server's word, unsigned:
   * it only makes the caller wait the no-answer time instead of the "not reachable" one.
   */
  'call pushed': (notice: CallPushedNotice) => void;
  error: (error: ErrorBody) => void;
}
