import { MongoClient, type Document, type Filter as MongoFilter } from 'mongodb';
import type { Collection, Doc, Filter, IndexSpec, ReadStore } from '@veil/ports';

/**
 * Read models in MongoDB. The port's filter subset maps one to one onto MongoDB's query
 * language (equality already means "contains" for arrays); `$icontains` becomes an escaped,
 * case-insensitive regex. Indexes are created when a collection is opened (idempotent).
 */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const toMongoFilter = (filter: Filter = {}): MongoFilter<Document> =>
  Object.fromEntries(
    Object.entries(filter).map(([path, condition]) => {
      if (condition !== null && typeof condition === 'object' && '$icontains' in condition) {
        return [path, { $regex: escapeRegex(condition.$icontains), $options: 'i' }];
      }
      return [path, condition];
    }),
  );

export const createMongoReadStore = async (options: {
  url: string;
  database: string;
}): Promise<ReadStore> => {
  const client = await new MongoClient(options.url, { ignoreUndefined: true }).connect();
  const db = client.db(options.database);

  return {
    async collection<T extends Doc>(name: string, indexes: IndexSpec[] = []): Promise<Collection<T>> {
      const collection = db.collection<Document>(name);
      for (const index of indexes)
        await collection.createIndex(index.fields, { unique: index.unique ?? false });
      const plain = (doc: Document | null) => (doc ? (doc as unknown as T) : null);
      return {
        get: async (id) => plain(await collection.findOne({ _id: id as never })),
        getMany: async (ids) =>
          (await collection.find({ _id: { $in: [...ids] as never[] } }).toArray()) as unknown as T[],
        put: async (doc) => {
          await collection.replaceOne({ _id: doc._id as never }, doc as Document, { upsert: true });
        },
        delete: async (id) => {
          await collection.deleteOne({ _id: id as never });
        },
        find: async (filter, findOptions = {}) => {
          let cursor = collection.find(toMongoFilter(filter));
          if (findOptions.sort) cursor = cursor.sort(findOptions.sort);
          if (findOptions.limit !== undefined) cursor = cursor.limit(findOptions.limit);
          return (await cursor.toArray()) as unknown as T[];
        },
        count: (filter) => collection.countDocuments(toMongoFilter(filter)),
        clear: async () => {
          await collection.deleteMany({});
        },
      };
    },
    async close() {
      await client.close();
    },
  };
};
