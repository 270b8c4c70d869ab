import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { MessageEvent } from '@veil/contracts';
import { foldTimelineMessage, type TimelineMessage } from '@veil/ports';

/**
 * A malicious server's hand on the embedded Veil's message timeline, for browser tests that play
 * one: the timeline is folded from the message log (docs/storage.md), so what a lying server
 * stores is events, written here straight into the log's file beside the running Veil. A planted
 * message takes the place in the history its `seq` names; a rewritten one keeps its own. Browsers
 * must then flag what they are served, whatever the server stored.
 */
export interface LyingLog {
  /** The messages of a chat, or of a sender, oldest first, as the server would serve them. */
  find(query: { chat: string } | { sender: string }): TimelineMessage[];
  get(messageId: string): TimelineMessage | null;
  /** Stores a message the sender never sent, at `seq` (past every real position). */
  plant(message: TimelineMessage): void;
  /** Replaces what a stored message shows (its events), keeping its place. */
  rewrite(message: TimelineMessage): void;
  close(): void;
}

/** Positions of forged events other than a message's MessageSent: after every real and planted one. */
let extraPosition = 2_000_000;
let forged = 0;

type Row = { position: number; event: string };

export const lyingLog = (dataDir: string): LyingLog => {
  const db = new DatabaseSync(path.join(dataDir, 'events', 'event-log.sqlite'), { timeout: 5_000 });
  const streamOf = (id: string) => `msg-${id}`;
  const fold = (stream: string) =>
    (
      db
        .prepare(
          "SELECT position, event FROM events WHERE context = 'message' AND stream = ? AND event != '' ORDER BY position",
        )
        .all(stream) as Row[]
    ).reduce<TimelineMessage | null>(
      (message, row) => foldTimelineMessage(message, JSON.parse(row.event) as MessageEvent, row.position),
      null,
    );
  const insert = db.prepare(
    'INSERT INTO events (context, position, stream, event_id, event) VALUES (?, ?, ?, ?, ?)',
  );
  const envelope = (id: string, occurredAt: string) => ({
    eventId: `forged-${Date.now()}-${forged++}`,
    streamId: streamOf(id),
    occurredAt,
    schemaVersion: 1,
  });
  const sentOf = (m: TimelineMessage) => ({
    ...envelope(m._id, m.createdAt),
    type: 'MessageSent',
    data: {
      messageId: m._id,
      chatId: m.chat,
      senderId: m.sender,
      content: m.content,
      iv: m.iv,
      encryptedKeys: m.encryptedKeys,
      replyTo: m.replyTo,
      ...(m.clientMessageId && { clientMessageId: m.clientMessageId }),
      ...(m.signature && { signature: m.signature }),
      ...(m.expiresAt && { expiresAt: m.expiresAt }),
    },
  });
  /** The events after its MessageSent that make a message show the rest of what it shows. */
  const laterEventsOf = (m: TimelineMessage) => {
    const on = { messageId: m._id, chatId: m.chat };
    const sealed = { content: m.content, iv: m.iv, encryptedKeys: m.encryptedKeys };
    return [
      ...(m.editedAt
        ? [
            {
              ...envelope(m._id, m.editedAt),
              type: 'MessageEdited',
              data: {
                ...on,
                senderId: m.sender,
                ...sealed,
                ...(m.editSignature && { signature: m.editSignature }),
              },
            },
          ]
        : []),
      ...Object.entries(m.reactions ?? {}).map(([userId, reaction]) => ({
        ...envelope(m._id, m.createdAt),
        type: 'ReactionSet',
        data: { ...on, userId, ...reaction },
      })),
      ...Object.keys(m.seenBy).map((userId) => ({
        ...envelope(m._id, m.createdAt),
        type: 'MessageSeen',
        data: { ...on, userId },
      })),
      ...(m.deleted
        ? [
            {
              ...envelope(m._id, m.createdAt),
              type: 'MessageDeleted',
              data: {
                ...on,
                senderId: m.sender,
                deletedBy: m.sender,
                sentAt: m.createdAt,
                seq: m.seq,
                ...(m.deleteSignature && { signature: m.deleteSignature }),
              },
            },
          ]
        : []),
    ];
  };
  const write = (m: TimelineMessage, sentAt: 'insert' | 'update') => {
    db.exec('BEGIN IMMEDIATE');
    try {
      const sent = sentOf(m);
      if (sentAt === 'insert')
        insert.run('message', m.seq, sent.streamId, sent.eventId, JSON.stringify(sent));
      else {
        db.prepare("UPDATE events SET event = '' WHERE context = 'message' AND stream = ?").run(
          sent.streamId,
        );
        db.prepare('UPDATE events SET event = ? WHERE context = ? AND position = ?').run(
          JSON.stringify(sent),
          'message',
          m.seq,
        );
      }
      for (const event of laterEventsOf(m))
        insert.run('message', extraPosition++, event.streamId, event.eventId, JSON.stringify(event));
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  };
  return {
    find(query) {
      const [field, value] = 'chat' in query ? ['chatId', query.chat] : ['senderId', query.sender];
      const streams = db
        .prepare(
          `SELECT DISTINCT stream FROM events WHERE context = 'message' AND event != '' AND event ->> '$.data.${field}' = ?`,
        )
        .all(value) as { stream: string }[];
      return streams
        .flatMap(({ stream }) => fold(stream) ?? [])
        .filter((m) => ('chat' in query ? m.chat === query.chat : m.sender === query.sender))
        .sort((a, b) => a.seq - b.seq);
    },
    get: (messageId) => fold(streamOf(messageId)),
    plant: (message) => write(message, 'insert'),
    rewrite: (message) => write(message, 'update'),
    close: () => db.close(),
  };
};
