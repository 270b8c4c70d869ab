import { describe, expect, it } from 'vitest';
import type { Doc, Filter, FindOptions, IndexSpec } from '@veil/ports';
import { openCollection } from './collection.ts';
import { openDatabase } from './database.ts';

/**
 * The read models' queries go through their indexes: each is planned on a collection declared
 * as its projection declares it, and SQLite's plan (EXPLAIN QUERY PLAN) must search an index,
 * never scan the documents, and never sort what an index gives in order.
 */
const planOf = (
  name: string,
  indexes: IndexSpec[],
  docs: (Doc & Record<string, unknown>)[],
  filter: Filter,
  options: FindOptions = {},
) => {
  const db = openDatabase(':memory:');
  try {
    const collection = openCollection(db, name);
    indexes.forEach((spec) => collection.addIndex(spec));
    docs.forEach((doc) => collection.put(doc));
    return collection.explain(filter, options).join('\n');
  } finally {
    db.close();
  }
};

describe('query plans of the read models', () => {
  it('a page of a chat: a range of the (chat, seq) index, in its order', () => {
    const plan = planOf(
      'message_timeline',
      [{ fields: { chat: 1, seq: 1 } }],
      [{ _id: 'm1', chat: 'c1', seq: 1 }],
      { chat: 'c1', seq: { $lt: 100 } },
      { sort: { seq: -1 }, limit: 51 },
    );
    expect(plan).toMatch(/SEARCH x USING COVERING INDEX message_timeline#1.by_key \(k1=\? AND k2<\?\)/);
    expect(plan).toMatch(/SEARCH d USING INTEGER PRIMARY KEY/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('a search of the directory: the name index walked in order, documents read only for matches', () => {
    const plan = planOf(
      'user_directory',
      [{ fields: { usernameLower: 1 } }],
      [{ _id: 'u1', usernameLower: 'ann' }],
      { usernameLower: { $icontains: 'an' } },
      { sort: { usernameLower: 1 }, limit: 200 },
    );
    // Only the string keys (a range of the index), in order, stopping at 200 matches.
    expect(plan).toMatch(/SEARCH x USING COVERING INDEX user_directory#1.by_key \(k1>\? AND k1<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE|SCAN d/);
  });

  it('a login lookup: an equality search of the index', () => {
    const login = planOf(
      'auth_credentials',
      [{ fields: { usernameLower: 1 } }],
      [{ _id: 'u1', usernameLower: 'ann', disabled: false }],
      { usernameLower: 'ann', disabled: false },
      { limit: 1 },
    );
    expect(login).toMatch(/SEARCH x USING COVERING INDEX auth_credentials#1.by_key \(k1=\?\)/);
    expect(login).not.toMatch(/SCAN [dx]\b/);
  });

  it('the chats of a member (an array field): the member index narrows, then the few chats are sorted', () => {
    const plan = planOf(
      'chat_chats',
      [{ fields: { members: 1 } }, { fields: { pairKey: 1 } }],
      [{ _id: 'c1', members: ['a', 'b'], pairKey: null, lastActivityId: 'x' }],
      { members: 'a' },
      { sort: { lastActivityId: -1 } },
    );
    expect(plan).toMatch(/SEARCH chat_chats#1 USING COVERING INDEX chat_chats#1.by_key \(k1=\?\)/);
    expect(plan).toMatch(/SEARCH d USING INTEGER PRIMARY KEY/);
    expect(plan).not.toMatch(/SCAN d\b/);
  });
});
