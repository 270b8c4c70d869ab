import type { Change, Collection, Doc } from '@veil/ports';

/**
 * Writes a projection makes, held in memory until they are stored together with its checkpoint
 * (projection.ts). A handler sees its models through views that read its own writes first,
 * then the writes waiting to be stored, then the store.
 */
export type StagedCollection<T extends Doc> = Pick<Collection<T>, 'get' | 'getMany' | 'put' | 'delete'>;

export type ReadModels = Record<string, Collection<Doc>>;

export type Staged<M extends ReadModels> = {
  [K in keyof M]: M[K] extends Collection<infer T> ? StagedCollection<T> : never;
};

/** collection name -> id -> the document, or null for a delete. */
export type PendingWrites = Map<string, Map<string, Doc | null>>;

const lookup = (layer: PendingWrites, collection: string, id: string) => {
  const found = layer.get(collection)?.get(id);
  return found === undefined ? undefined : { found };
};

/** The newest staged write of a document: its event's own first, then the layers underneath. */
const lookupStaged = (staging: Staging, collection: string, id: string) => {
  const own = lookup(staging.own, collection, id);
  if (own) return own;
  for (const layer of staging.underneath()) {
    const found = lookup(layer, collection, id);
    if (found) return found;
  }
  return undefined;
};

/**
 * Where a handler's writes go (`own`, one event's) and what it reads before the store
 * (`underneath()`, newest first). Views read both when called, so a caller applying events one
 * at a time may keep one set of views and give each event a fresh `own`.
 */
export interface Staging {
  own: PendingWrites;
  underneath: () => readonly PendingWrites[];
}

export const pendingChanges = (pending: PendingWrites): Change[] =>
  [...pending].flatMap(([collection, docs]) =>
    [...docs].map(([id, doc]): Change => (doc ? { collection, put: doc } : { collection, delete: id })),
  );

/** Moves `from`'s writes into `into`; a write in `from` replaces one of the same document in `into`. */
export const mergeInto = (into: PendingWrites, from: PendingWrites) => {
  for (const [collection, docs] of from) {
    let target = into.get(collection);
    if (!target) into.set(collection, (target = new Map()));
    for (const [id, doc] of docs) target.set(id, doc);
  }
};

/**
 * Views of `models` that write to `staging.own` and read from it, then from
 * `staging.underneath()` (newest first: writes staged by earlier events, then writes being
 * stored), then from the store.
 */
export const stagedViews = <M extends ReadModels>(models: M, staging: Staging): Staged<M> => {
  const view = <T extends Doc>(collection: Collection<T>): StagedCollection<T> => {
    const name = collection.name;
    const write = (id: string, doc: T | null) => {
      let docs = staging.own.get(name);
      if (!docs) staging.own.set(name, (docs = new Map()));
      docs.set(id, doc);
    };
    return {
      async get(id) {
        const staged = lookupStaged(staging, name, id);
        return staged ? (staged.found as T | null) : collection.get(id);
      },
      async getMany(ids) {
        const distinct = [...new Set(ids)];
        const unstaged = distinct.filter((id) => !lookupStaged(staging, name, id));
        const stored = new Map((await collection.getMany(unstaged)).map((doc) => [doc._id, doc]));
        return distinct.flatMap((id) => {
          const staged = lookupStaged(staging, name, id);
          const doc = staged ? (staged.found as T | null) : stored.get(id);
          return doc ? [doc] : [];
        });
      },
      async put(doc) {
        write(doc._id, doc);
      },
      async delete(id) {
        write(id, null);
      },
    };
  };
  return Object.fromEntries(
    Object.entries(models).map(([key, collection]) => [key, view(collection)]),
  ) as Staged<M>;
};
