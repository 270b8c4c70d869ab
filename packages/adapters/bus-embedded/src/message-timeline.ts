import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { messageStreamId, type MessageEvent } from '@veil/contracts';
import {
  foldTimelineMessage,
  type MessageTimeline,
  type TimelineMessage,
  type TimelinePageQuery,
} from '@veil/ports';
import type { LogIndex } from './log-database.ts';

/**
 * The message timeline answered from the event log itself (the `MessageTimeline` port, embedded
 * mode): partial indexes over the message context's rows in the log's `events` table find the
 * messages a query asks for, and each message is folded from its stream's events
 * (`foldTimelineMessage`, the fold the read-model table applies). Nothing is stored beside the
 * log, so a send costs no document, only the index entries of its own row.
 *
 * A message is found by its MessageSent while it holds content, and by its MessageDeleted once
 * deleted for everyone (the deletion erases the MessageSent, and its row leaves the indexes).
 * Expiry erases both, so an expired message is in no index. An erased row's event is blank:
 * every expression reads the JSON only when there is some (`json ->>` fails on '').
 */

/** A field of a row's event, null for an erased one. */
const field = (path: string) => `(CASE WHEN event = '' THEN NULL ELSE event ->> '${path}' END)`;
const type = field('$.type');
const chat = field('$.data.chatId');
/** The message's place in its chat: its MessageSent's position, which a MessageDeleted names. */
const seq = `coalesce(${field('$.data.seq')}, position)`;
/** When it was sent: a MessageSent's time, or the time a MessageDeleted names. */
const sentAt = `coalesce(${field('$.data.sentAt')}, ${field('$.occurredAt')})`;
const expiresAt = field('$.data.expiresAt');
const sender = field('$.data.senderId');
const clientKey = field('$.data.clientMessageId');
const findable = `context = 'message' AND ${type} IN ('MessageSent', 'MessageDeleted')`;
const sentWithKey = `context = 'message' AND ${type} = 'MessageSent' AND ${clientKey} IS NOT NULL`;
const disappearing = `${findable} AND ${expiresAt} IS NOT NULL`;

/** Created at start when missing (idempotent); SQLite keeps them in step with every append and erasure. */
export const messageTimelineIndexes: readonly LogIndex[] = [
  {
    name: 'events_message_by_chat',
    sql: `CREATE INDEX IF NOT EXISTS events_message_by_chat ON events (${chat}, ${seq}) WHERE ${findable}`,
  },
  {
    name: 'events_message_by_client_key',
    sql: `CREATE INDEX IF NOT EXISTS events_message_by_client_key ON events (${sender}, ${clientKey}) WHERE ${sentWithKey}`,
  },
  {
    name: 'events_message_by_expiry',
    sql: `CREATE INDEX IF NOT EXISTS events_message_by_expiry ON events (${expiresAt}) WHERE ${disappearing}`,
  },
];

/*
 * Each query names its index (INDEXED BY): without statistics SQLite's planner may prefer the
 * log's own index on the context and sort, and a query its index cannot answer fails instead of
 * scanning the log.
 */

/** Reads on the log's connection, inside its read transaction of the turn. */
export type LogQuery = <T>(work: (db: DatabaseSync) => T) => T;

interface Row {
  stream: string;
  key: number | string;
}

/** A page of a chat: the rows of its messages in `seq` order, within the bounds given. */
export const pageSql = (order: 'newest' | 'oldest', bounds: readonly string[]) =>
  `SELECT stream, ${seq} AS key FROM events INDEXED BY events_message_by_chat WHERE ${findable} AND ${chat} = :chat ${bounds
    .map((bound) => `AND ${bound}`)
    .join(' ')} ORDER BY ${seq} ${order === 'newest' ? 'DESC' : 'ASC'} LIMIT :limit`;

/** The bounds `pageSql` may be given, each with its parameter. */
export const pageBounds = {
  upper: `${seq} < :upper`,
  lower: `${seq} > :lower`,
  sentFrom: `${sentAt} >= :sentFrom`,
  sentBefore: `${sentAt} < :sentBefore`,
} as const;

/** A sender's MessageSent by its `clientMessageId`. */
export const clientKeySql = `SELECT stream FROM events INDEXED BY events_message_by_client_key WHERE ${sentWithKey} AND ${sender} = :sender AND ${clientKey} = :key`;

/** Disappearing messages by `expiresAt`, from the row after `(:from, :fromSeq)` when `walkedOn`. */
export const expirySql = (bound: '<=' | '>', walkedOn: boolean) =>
  `SELECT stream, ${expiresAt} AS key, seq FROM events INDEXED BY events_message_by_expiry WHERE ${disappearing} AND ${expiresAt} ${bound} :bound` +
  (walkedOn ? ` AND (${expiresAt}, seq) > (:from, :fromSeq)` : '') +
  ` ORDER BY ${expiresAt}, seq LIMIT :limit`;

export const createLogTimeline = (query: LogQuery): MessageTimeline => {
  const statements = new Map<string, StatementSync>();
  /** A statement prepared once on the log's connection. */
  const statement = (db: DatabaseSync, sql: string) => {
    let prepared = statements.get(sql);
    if (!prepared) statements.set(sql, (prepared = db.prepare(sql)));
    return prepared;
  };

  const streamSql =
    "SELECT position, event FROM events WHERE context = 'message' AND stream = ? AND event != '' ORDER BY position";

  /**
   * One message from its stream. Receipts and hidings recorded before a deletion erased the
   * MessageSent still count for its tombstone: the fold meets them before it meets a message.
   */
  const folded = (db: DatabaseSync, stream: string): TimelineMessage | null => {
    let message: TimelineMessage | null = null;
    const early = { seenBy: {} as Record<string, true>, hiddenFor: new Set<string>() };
    for (const row of statement(db, streamSql).all(stream) as { position: number; event: string }[]) {
      const event = JSON.parse(row.event) as MessageEvent;
      if (!message && event.type === 'MessageSeen') early.seenBy[event.data.userId] = true;
      if (!message && event.type === 'MessageHidden') early.hiddenFor.add(event.data.userId);
      message = foldTimelineMessage(message, event, row.position);
    }
    if (!message || !message.deleted) return message;
    const hiddenFor = [...new Set([...early.hiddenFor, ...(message.hiddenFor ?? [])])];
    return {
      ...message,
      seenBy: { ...early.seenBy, ...message.seenBy },
      ...(hiddenFor.length && { hiddenFor }),
    };
  };

  /**
   * Walks index rows in order, `read(after, limit)` a batch at a time from the key last met,
   * folding each message once, until `limit` messages are found or the rows end: a row whose
   * message folds to nothing (expired) or was met already is passed over.
   */
  const collect = (
    db: DatabaseSync,
    limit: number,
    read: (from: Row['key'] | undefined, limit: number) => Row[],
    keep: (message: TimelineMessage) => boolean = () => true,
  ): TimelineMessage[] => {
    const found: TimelineMessage[] = [];
    const met = new Set<string>();
    let from: Row['key'] | undefined;
    while (found.length < limit) {
      const wanted = limit - found.length;
      const rows = read(from, wanted);
      for (const row of rows) {
        from = row.key;
        if (met.has(row.stream)) continue;
        met.add(row.stream);
        const message = folded(db, row.stream);
        if (message && keep(message)) found.push(message);
      }
      if (rows.length < wanted) break;
    }
    return found;
  };

  const page = (db: DatabaseSync, q: TimelinePageQuery) =>
    collect(db, q.limit, (from, limit) => {
      const newest = q.order === 'newest';
      // The walk goes on from the key last met: rows sharing a key are one message (its
      // MessageSent and its MessageDeleted), so nothing is skipped.
      const upper = newest ? (from ?? q.before) : q.before;
      const lower = newest ? q.after : (from ?? q.after);
      const given = { upper, lower, sentFrom: q.sentFrom, sentBefore: q.sentBefore };
      const bounds: string[] = [];
      const params: Record<string, string | number> = { chat: q.chatId, limit };
      for (const name of ['upper', 'lower', 'sentFrom', 'sentBefore'] as const) {
        const value = given[name];
        if (value === undefined) continue;
        bounds.push(pageBounds[name]);
        params[name] = value;
      }
      return statement(db, pageSql(q.order, bounds)).all(params) as unknown as Row[];
    });

  /**
   * Disappearing messages by `expiresAt`, soonest first, walked on from the last row met (its
   * time and its row: messages may expire at the same moment).
   */
  const byExpiry = (db: DatabaseSync, bound: '<=' | '>', value: string, limit: number) => {
    let from: { key: string; seq: number } | undefined;
    const rows = (after: typeof from, wanted: number) =>
      statement(db, expirySql(bound, after !== undefined)).all({
        bound: value,
        limit: wanted,
        ...(after && { from: after.key, fromSeq: after.seq }),
      }) as unknown as (Row & { seq: number })[];
    return collect(
      db,
      limit,
      (_, wanted) => {
        const batch = rows(from, wanted);
        const last = batch.at(-1);
        if (last) from = { key: String(last.key), seq: last.seq };
        return batch;
      },
      (message) => message.expiresAt !== undefined,
    );
  };

  return {
    get: async (messageId) => query((db) => folded(db, messageStreamId(messageId))),
    getMany: async (messageIds) =>
      query((db) =>
        [...new Set(messageIds)].flatMap((id) => {
          const message = folded(db, messageStreamId(id));
          return message ? [message] : [];
        }),
      ),
    page: async (q) => query((db) => page(db, q)),
    bySenderKey: async (senderId, clientMessageId) =>
      query((db) => {
        const rows = statement(db, clientKeySql).all({ sender: senderId, key: clientMessageId }) as {
          stream: string;
        }[];
        for (const { stream } of rows) {
          const message = folded(db, stream);
          if (message) return message;
        }
        return null;
      }),
    expiring: async (until, limit) => query((db) => byExpiry(db, '<=', until, limit)),
    nextExpiry: async (after) => query((db) => byExpiry(db, '>', after, 1)[0]?.expiresAt ?? null),
  };
};
