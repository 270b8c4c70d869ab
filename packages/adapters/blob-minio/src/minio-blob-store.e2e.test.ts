import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { describe } from 'vitest';
import { describeBlobStoreContract } from '@veil/ports/contract';
import { uniquePrefix } from '@veil/test-env';
import { createMinioBlobStore } from './minio-blob-store.ts';

/**
 * The MinIO adapter over real S3 HTTP: against an S3-compatible server (s3rver) that the test
 * starts on loopback, and against S3_ENDPOINT (a real MinIO) when set.
 */
const randomBucket = () => uniquePrefix('veiltest');

describeBlobStoreContract('MinIO client over S3 HTTP (s3rver on loopback)', async () => {
  const directory = await mkdtemp(path.join(tmpdir(), 'veil-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const address = (await server.run()) as AddressInfo;
  const store = await createMinioBlobStore({
    endpoint: `http://127.0.0.1:${address.port}`,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    bucket: randomBucket(),
    region: 'us-east-1',
  });
  return {
    store,
    teardown: async () => {
      await store.close();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
});

const endpoint = process.env.S3_ENDPOINT;
if (!endpoint) console.log('blob-minio: skipped: S3_ENDPOINT not set (the s3rver run above still ran)');

describe.skipIf(!endpoint)('MinIO at S3_ENDPOINT (skipped: S3_ENDPOINT not set)', () => {
  describeBlobStoreContract('MinIO at S3_ENDPOINT', async () => {
    const store = await createMinioBlobStore({
      endpoint: endpoint!,
      accessKey: process.env.S3_ACCESS_KEY ?? '',
      secretKey: process.env.S3_SECRET_KEY ?? '',
      bucket: randomBucket(),
      region: process.env.S3_REGION ?? 'us-east-1',
    });
    return { store, teardown: () => store.close() };
  });
});
