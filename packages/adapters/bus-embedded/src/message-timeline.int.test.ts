import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { Logger } from '@veil/ports';
import { createEmbeddedBus } from './embedded-bus.ts';
import { logFileName } from './log-database.ts';
import { clientKeySql, expirySql, pageBounds, pageSql } from './message-timeline.ts';

/**
 * The message timeline's queries over the log (the port's contract runs in the message service,
 * with the projection that erases what the indexes must stop finding): each goes through its
 * index, in the index's order, whatever the log holds; the indexes are built once.
 */
const recorded: string[] = [];
const logger: Logger = {
  debug() {},
  info: (_fields, message) => void recorded.push(message ?? ''),
  warn() {},
  error() {},
  child: () => logger,
};

const queries = [
  ...(['newest', 'oldest'] as const).flatMap((order) => [
    { name: `a chat's newest page (${order})`, sql: pageSql(order, []) },
    { name: `a page before a seq (${order})`, sql: pageSql(order, [pageBounds.upper]) },
    {
      name: `a page between seqs, in a member's time (${order})`,
      sql: pageSql(order, Object.values(pageBounds)),
    },
  ]),
  { name: "a sender's clientMessageId", sql: clientKeySql },
  { name: 'messages due', sql: expirySql('<=', false) },
  { name: 'messages due, walked on', sql: expirySql('<=', true) },
  { name: 'the next expiry', sql: expirySql('>', true) },
];

describe('the message timeline over the embedded log', () => {
  it('answers every query through its index, in its order, and builds the indexes once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'veil-log-timeline-'));
    try {
      for (let start = 0; start < 2; start++) {
        const bus = await createEmbeddedBus({ dataDir, log: logger, messageTimeline: true });
        await bus.close();
      }
      expect(recorded.filter((message) => message === 'indexing the event log')).toHaveLength(3);

      const db = new DatabaseSync(path.join(dataDir, logFileName));
      try {
        for (const { name, sql } of queries) {
          const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
            .map((row) => row.detail)
            .join(' | ');
          expect(plan, name).toMatch(/USING INDEX events_message_by_/);
          expect(plan, name).not.toMatch(/SCAN events|TEMP B-TREE/);
        }
      } finally {
        db.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
