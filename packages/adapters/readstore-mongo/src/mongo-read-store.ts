import {
  MongoClient,
  MongoServerError,
  type AnyBulkWriteOperation,
  type ClientSession,
  type Db,
  type Document,
  type Filter as MongoFilter,
} from 'mongodb';
import {
  checkFindOptions,
  DuplicateKeyError,
  parseCondition,
  type Change,
  type Collection,
  type Doc,
  type Filter,
  type IndexSpec,
  type ParsedCondition,
  type ReadStore,
} from '@veil/ports';

/**
 * Read models in MongoDB. The port's filter language is MongoDB's own meaning, so a condition
 * passes through once checked (the same check every store makes); `$icontains` becomes an
 * escaped, case-insensitive regex. Indexes are created when a collection is opened (idempotent);
 * unique ones are MongoDB's own.
 *
 * `write` is one transaction when the server can run them (a replica set or a sharded cluster;
 * the Helm chart runs its MongoDB as a replica set for this, docs/deployment.md).
 * A standalone server cannot: the changes are then written in order, one collection's run at a
 * time, each acknowledged before the next starts, so a projection's checkpoint (its last change)
 * is never stored before the documents it covers. A failure half way leaves the earlier changes
 * stored; the projection applies those events again from its older checkpoint, which its
 * idempotent handlers allow.
 */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const toMongoCondition = (condition: ParsedCondition): unknown => {
  switch (condition.kind) {
    case 'in':
      return condition.values.length === 1 ? condition.values[0] : { $in: condition.values };
    case 'contains':
      return { $regex: escapeRegex(condition.needle), $options: 'i' };
    case 'range':
      return Object.fromEntries(condition.bounds);
  }
};

export const toMongoFilter = (filter: Filter = {}): MongoFilter<Document> =>
  Object.fromEntries(
    Object.entries(filter).map(([path, condition]) => [
      path,
      toMongoCondition(parseCondition(path, condition)),
    ]),
  );

const duplicateKeyCode = 11000;

/** MongoDB's duplicate-key error as the port's; anything else as it is. */
const portError = (collection: string, error: unknown): unknown => {
  if (!(error instanceof MongoServerError)) return error;
  const writeErrors = (error as { writeErrors?: { code?: number }[] }).writeErrors ?? [];
  if (error.code !== duplicateKeyCode && !writeErrors.some((e) => e.code === duplicateKeyCode)) return error;
  return new DuplicateKeyError(collection, Object.keys((error.keyPattern as Document | undefined) ?? {}));
};

const operationOf = (change: Change): AnyBulkWriteOperation<Document> =>
  'put' in change
    ? { replaceOne: { filter: { _id: change.put._id as never }, replacement: change.put, upsert: true } }
    : { deleteOne: { filter: { _id: change.delete as never } } };

/** Consecutive changes to the same collection, as one ordered bulk write each. */
const runsOf = (changes: readonly Change[]) => {
  const runs: { collection: string; operations: AnyBulkWriteOperation<Document>[] }[] = [];
  for (const change of changes) {
    const last = runs.at(-1);
    if (last?.collection === change.collection) last.operations.push(operationOf(change));
    else runs.push({ collection: change.collection, operations: [operationOf(change)] });
  }
  return runs;
};

const writeInOrder = async (db: Db, changes: readonly Change[], session?: ClientSession) => {
  for (const run of runsOf(changes)) {
    try {
      await db
        .collection(run.collection)
        .bulkWrite(run.operations, { ordered: true, ...(session && { session }) });
    } catch (error) {
      throw portError(run.collection, error);
    }
  }
};

/** Transactions need a replica set member or a mongos (`hello` says which). */
const supportsTransactions = async (db: Db) => {
  try {
    const hello = await db.admin().command({ hello: 1 });
    return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
  } catch {
    return false;
  }
};

export const createMongoReadStore = async (options: {
  url: string;
  database: string;
}): Promise<ReadStore> => {
  const client = await new MongoClient(options.url, { ignoreUndefined: true }).connect();
  const db = client.db(options.database);
  const transactional = await supportsTransactions(db);

  return {
    transactional,
    async collection<T extends Doc>(name: string, indexes: IndexSpec[] = []): Promise<Collection<T>> {
      const collection = db.collection<Document>(name);
      for (const index of indexes) {
        try {
          await collection.createIndex(index.fields, { unique: index.unique ?? false });
        } catch (error) {
          throw portError(name, error);
        }
      }
      const plain = (doc: Document | null) => (doc ? (doc as unknown as T) : null);
      return {
        name,
        get: async (id) => plain(await collection.findOne({ _id: id as never })),
        getMany: async (ids) =>
          (await collection.find({ _id: { $in: [...ids] as never[] } }).toArray()) as unknown as T[],
        put: async (doc) => {
          try {
            await collection.replaceOne({ _id: doc._id as never }, doc as Document, { upsert: true });
          } catch (error) {
            throw portError(name, error);
          }
        },
        delete: async (id) => {
          await collection.deleteOne({ _id: id as never });
        },
        find: async (filter, findOptions = {}) => {
          checkFindOptions(findOptions);
          let cursor = collection.find(toMongoFilter(filter));
          if (findOptions.sort) cursor = cursor.sort(findOptions.sort);
          if (findOptions.limit !== undefined) cursor = cursor.limit(findOptions.limit);
          return (await cursor.toArray()) as unknown as T[];
        },
        count: async (filter) => collection.countDocuments(toMongoFilter(filter)),
        clear: async () => {
          await collection.deleteMany({});
        },
      };
    },
    async write(changes) {
      if (!changes.length) return;
      if (!transactional) return writeInOrder(db, changes);
      const session = client.startSession();
      try {
        await session.withTransaction(() => writeInOrder(db, changes, session));
      } finally {
        await session.endSession();
      }
    },
    async drop(name) {
      // A collection that was never made is already gone (NamespaceNotFound on older servers).
      await db.dropCollection(name).catch((error: unknown) => {
        if ((error as { code?: unknown }).code !== 26) throw error;
      });
    },
    async close() {
      await client.close();
    },
  };
};
