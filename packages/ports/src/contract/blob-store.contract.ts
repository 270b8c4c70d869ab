import { describe, expect, it } from 'vitest';
import type { BlobStore } from '../blob-store.port.ts';

/** The blob-store contract, run by the filesystem store and by MinIO over real S3 HTTP. */
export interface BlobStoreUnderTest {
  store: BlobStore;
  teardown(): Promise<void>;
}

export const describeBlobStoreContract = (name: string, make: () => Promise<BlobStoreUnderTest>) => {
  describe(`BlobStore contract: ${name}`, () => {
    const withStore = (body: (store: BlobStore) => Promise<void>) => async () => {
      const { store, teardown } = await make();
      try {
        await body(store);
      } finally {
        await teardown();
      }
    };
    const bytes = (n: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37) % 256);

    it(
      'round-trips binary bytes and the content type, under keys with slashes',
      withStore(async (store) => {
        await store.put('avatars/one.png', bytes(70_000), 'image/png');
        const got = await store.get('avatars/one.png');
        expect(got?.contentType).toBe('image/png');
        expect(Buffer.from(got!.bytes).equals(Buffer.from(bytes(70_000)))).toBe(true);
      }),
    );

    it(
      'overwrites, reports missing keys as null and deletes (twice is fine)',
      withStore(async (store) => {
        await store.put('a/b/c.gif', bytes(10), 'image/gif');
        await store.put('a/b/c.gif', bytes(20), 'image/webp');
        const got = await store.get('a/b/c.gif');
        expect(got?.bytes.length).toBe(20);
        expect(got?.contentType).toBe('image/webp');
        expect(await store.get('a/b/missing.gif')).toBeNull();
        await store.delete('a/b/c.gif');
        await store.delete('a/b/c.gif');
        expect(await store.get('a/b/c.gif')).toBeNull();
      }),
    );

    it(
      'lists the keys under a folder at any depth, and deletes a folder',
      withStore(async (store) => {
        await store.put('files/x1/0', bytes(5), 'application/octet-stream');
        await store.put('files/x1/1', bytes(6), 'application/octet-stream');
        await store.put('files/x1/thumb/0', bytes(7), 'application/octet-stream');
        await store.put('files/x10/0', bytes(8), 'application/octet-stream');
        expect((await store.list('files/x1/')).sort()).toEqual([
          'files/x1/0',
          'files/x1/1',
          'files/x1/thumb/0',
        ]);
        expect(await store.list('files/none/')).toEqual([]);
        await store.deleteFolder('files/x1/');
        await store.deleteFolder('files/x1/');
        expect(await store.list('files/x1/')).toEqual([]);
        expect(await store.get('files/x1/0')).toBeNull();
        expect((await store.get('files/x10/0'))?.bytes.length).toBe(8);
        await expect(store.list('files/x1')).rejects.toThrow(/folder/);
      }),
    );
  });
};
