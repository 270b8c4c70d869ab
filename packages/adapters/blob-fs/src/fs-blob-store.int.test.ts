import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeBlobStoreContract } from '@veil/ports/contract';
import { createFsBlobStore } from './fs-blob-store.ts';

describeBlobStoreContract('filesystem', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'veil-blobs-'));
  const store = createFsBlobStore({ dir });
  return { store, teardown: () => rm(dir, { recursive: true, force: true }) };
});

describe('filesystem blob keys', () => {
  it('refuses keys that could leave the directory', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'veil-blobs-'));
    const store = createFsBlobStore({ dir });
    for (const key of ['../x', 'a/../../x', '/etc/passwd', 'a//b', 'a/./b', 'a b']) {
      await expect(store.put(key, new Uint8Array(1), 'image/png'), key).rejects.toThrow(/Invalid blob key/);
    }
    await rm(dir, { recursive: true, force: true });
  });
});
