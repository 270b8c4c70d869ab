import { randomBytes } from 'node:crypto';
import {
  DomainError,
  linkOpenSchema,
  linkRefSchema,
  linkRelaySchema,
  parseWith,
  type LinkClosedReason,
} from '@veil/contracts';
import type { ExpiringRecords, Logger } from '@veil/ports';
import { answerRequest, asAck } from '../acks.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { RealtimeServer, RealtimeSocket } from '../socket-types.ts';
import {
  decideClose,
  decideJoin,
  decideRelay,
  openLink,
  parseLinkRecord,
  type LinkRecord,
} from './link.rules.ts';

/**
 * A record outlives its link by this much, so a code typed a little late is answered "expired"
 * rather than "no such link".
 */
const keptAfterExpiryMs = 10 * 60_000;
/** Replicas racing on one record retry this often before giving up. */
const maxAttempts = 5;

export interface LinkChannelDeps {
  io: RealtimeServer;
  records: ExpiringRecords;
  ttlMs: number;
  now: () => number;
  log: Logger;
}

/**
 * The rendezvous behind "Link a new browser": the new browser opens a link, one other socket of
 * the same user joins it, and the two exchange a few opaque messages through it. State lives in
 * shared records, so the two sockets may sit on different replicas; messages reach the other
 * socket through the adapter (`io.to(socketId)`). The gateway never reads what it relays.
 */
export const createLinkChannel = (deps: LinkChannelDeps) => {
  const { io, records, ttlMs, now } = deps;

  /** Reads the record, decides, and replaces it at the version read; another replica's win means deciding again. */
  const update = async <T>(
    linkId: string,
    decide: (record: LinkRecord | null) => { next: LinkRecord; result: T } | null,
  ): Promise<T | null> => {
    for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
      const stored = await records.read(linkId);
      const decision = decide(stored && parseLinkRecord(stored.value));
      if (!decision) return null;
      if (stored && (await records.replace(linkId, stored.version, JSON.stringify(decision.next))))
        return decision.result;
    }
    throw new DomainError('UNAVAILABLE', 'The link is busy; try again');
  };

  const open = async (socket: RealtimeSocket, commitment: string) => {
    const linkId = randomBytes(16).toString('hex');
    const record = openLink({
      userId: socket.data.userId,
      socketId: socket.id,
      commitment,
      now: now(),
      ttlMs,
    });
    if (!(await records.create(linkId, JSON.stringify(record), ttlMs + keptAfterExpiryMs)))
      throw new DomainError('UNAVAILABLE', 'Could not open a link; try again');
    return { linkId, expiresAt: new Date(record.expiresAt).toISOString() };
  };

  const join = async (socket: RealtimeSocket, linkId: string) => {
    const party = { userId: socket.data.userId, socketId: socket.id, now: now() };
    const joined = await update(linkId, (record) => {
      const next = decideJoin(record, party);
      return { next, result: next };
    });
    io.to(joined!.opener).emit('link joined', { linkId });
    return { commitment: joined!.commitment, expiresAt: new Date(joined!.expiresAt).toISOString() };
  };

  const relay = async (socket: RealtimeSocket, linkId: string, data: string) => {
    const party = { userId: socket.data.userId, socketId: socket.id, now: now() };
    const to = await update(linkId, (record) => {
      const { next, to } = decideRelay(record, party);
      return { next, result: to };
    });
    io.to(to!).emit('link relay', { linkId, data });
  };

  const close = async (socket: RealtimeSocket, linkId: string, reason: LinkClosedReason) => {
    const party = { userId: socket.data.userId, socketId: socket.id };
    const notify = await update(linkId, (record) => {
      const decision = decideClose(record, party);
      return decision && { next: decision.next, result: decision.notify };
    });
    if (notify) io.to(notify).emit('link closed', { linkId, reason });
  };

  return { open, join, relay, close };
};

export type LinkChannel = ReturnType<typeof createLinkChannel>;

const needsAck = (rawAck: unknown, event: string) => {
  if (!asAck(rawAck))
    throw new DomainError('VALIDATION_FAILED', `${event} needs an acknowledgement callback`);
};

/**
 * One socket's link events, all on one budget. The links this socket is a party of end when it
 * disconnects, and the other browser is told.
 */
export const registerLinking = (input: {
  socket: RealtimeSocket;
  channel: LinkChannel;
  limiter: RateLimiter;
  now: () => number;
  log: Logger;
}): void => {
  const { socket, channel, limiter, now, log } = input;
  const mine = new Set<string>();
  const budget = () => {
    if (!limiter.take(now())) throw new DomainError('RATE_LIMITED', 'Too many link requests; slow down');
  };
  const handle = (rawAck: unknown, work: () => Promise<unknown>) =>
    answerRequest(socket, rawAck, log, async () => {
      budget();
      await work();
    });

  socket.on('link open', (payload, rawAck) =>
    answerRequest(socket, rawAck, log, async () => {
      needsAck(rawAck, 'link open');
      budget();
      const opened = await channel.open(socket, parseWith(linkOpenSchema, payload).commitment);
      mine.add(opened.linkId);
      return opened;
    }),
  );
  socket.on('link join', (payload, rawAck) =>
    answerRequest(socket, rawAck, log, async () => {
      needsAck(rawAck, 'link join');
      budget();
      const { linkId } = parseWith(linkRefSchema, payload);
      const joined = await channel.join(socket, linkId);
      mine.add(linkId);
      return joined;
    }),
  );
  socket.on('link relay', (payload, rawAck) =>
    handle(rawAck, async () => {
      const { linkId, data } = parseWith(linkRelaySchema, payload);
      await channel.relay(socket, linkId, data);
    }),
  );
  socket.on('link close', (payload, rawAck) =>
    handle(rawAck, async () => {
      const { linkId } = parseWith(linkRefSchema, payload);
      await channel.close(socket, linkId, 'cancelled');
      mine.delete(linkId);
    }),
  );
  socket.on('disconnect', () => {
    for (const linkId of mine)
      channel.close(socket, linkId, 'left').catch((error: unknown) => {
        // A link whose record has expired is simply gone; anything else is worth a line.
        if (error instanceof DomainError && error.code === 'LINK_NOT_FOUND') return;
        log.warn({ err: error, linkId }, 'closing a link failed');
      });
  });
};
