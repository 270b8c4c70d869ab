import { DomainError, limits } from '@veil/contracts';

/**
 * The rules of a browser link, pure: what a join, a relay or a close does to the link's record,
 * or why it is refused. The record is shared by the replicas (ExpiringRecords); the channel reads
 * it, decides here and replaces it at the version it read.
 */
export interface LinkRecord {
  userId: string;
  /** The new browser's commitment to its one-time public key, handed to the joiner. */
  commitment: string;
  /** Socket ids: the opener (the new browser) and the one joiner (a logged-in browser). */
  opener: string;
  joiner: string | null;
  expiresAt: number;
  state: 'open' | 'joined' | 'closed';
  /** Messages relayed so far, both ways. */
  relayed: number;
}

/** Who asks: the token's user and the asking socket. */
export interface LinkParty {
  userId: string;
  socketId: string;
  now: number;
}

/** Another user's link reads as no link at all: its existence is nobody else's business. */
const notFound = () =>
  new DomainError('LINK_NOT_FOUND', 'No link has this code: check it, or start again on the new browser');
const expired = () =>
  new DomainError('LINK_EXPIRED', 'This link has expired: start again on the new browser');
const used = () =>
  new DomainError('LINK_USED', 'This link has already been used: start again on the new browser');

export const openLink = (input: {
  userId: string;
  socketId: string;
  commitment: string;
  now: number;
  ttlMs: number;
}): LinkRecord => ({
  userId: input.userId,
  commitment: input.commitment,
  opener: input.socketId,
  joiner: null,
  expiresAt: input.now + input.ttlMs,
  state: 'open',
  relayed: 0,
});

/** The one joiner: another socket of the same user, while the link is open and unexpired. */
export const decideJoin = (record: LinkRecord | null, party: LinkParty): LinkRecord => {
  if (!record || record.userId !== party.userId) throw notFound();
  if (party.now >= record.expiresAt) throw expired();
  if (record.state !== 'open' || record.opener === party.socketId) throw used();
  return { ...record, joiner: party.socketId, state: 'joined' };
};

const isParty = (record: LinkRecord, socketId: string) =>
  socketId === record.opener || socketId === record.joiner;

/** One message from one party to the other, within the link's count. Returns the recipient socket. */
export const decideRelay = (
  record: LinkRecord | null,
  party: LinkParty,
): { next: LinkRecord; to: string } => {
  if (!record || record.userId !== party.userId || !isParty(record, party.socketId)) throw notFound();
  if (party.now >= record.expiresAt) throw expired();
  if (record.state === 'closed') throw used();
  if (!record.joiner) throw new DomainError('VALIDATION_FAILED', 'No other browser has joined this link yet');
  if (record.relayed >= limits.linkMessagesMax)
    throw new DomainError('RATE_LIMITED', 'This link has carried all the messages it may');
  const to = party.socketId === record.opener ? record.joiner : record.opener;
  return { next: { ...record, relayed: record.relayed + 1 }, to };
};

/**
 * Either party ends the link (done, cancelled, or its socket went away); it can never be joined
 * again. Returns the other party to tell, or null when there is none or it was closed already.
 */
export const decideClose = (
  record: LinkRecord | null,
  party: Omit<LinkParty, 'now'>,
): { next: LinkRecord; notify: string | null } | null => {
  if (!record || record.userId !== party.userId || !isParty(record, party.socketId)) throw notFound();
  if (record.state === 'closed') return null;
  const notify = party.socketId === record.opener ? record.joiner : record.opener;
  return { next: { ...record, state: 'closed' }, notify };
};

/** A record as stored; anything else (a value from an older format) reads as no link. */
export const parseLinkRecord = (value: string): LinkRecord | null => {
  try {
    const record = JSON.parse(value) as Partial<LinkRecord>;
    return typeof record.userId === 'string' && typeof record.opener === 'string'
      ? (record as LinkRecord)
      : null;
  } catch {
    return null;
  }
};
