import type { ReadStore } from '../read-store.port.ts';

/** A fresh store for one test of the read-store contract, and how to dispose of it. */
export interface ReadStoreUnderTest {
  store: ReadStore;
  teardown(): Promise<void>;
}

/** A test body run on a fresh store, which is torn down whatever the body does. */
export type WithStore = (body: (store: ReadStore) => Promise<void>) => () => Promise<void>;

export const withStoreFrom =
  (make: () => Promise<ReadStoreUnderTest>): WithStore =>
  (body) =>
  async () => {
    const { store, teardown } = await make();
    try {
      await body(store);
    } finally {
      await teardown();
    }
  };
