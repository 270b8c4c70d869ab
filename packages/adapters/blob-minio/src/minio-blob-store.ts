import { Client, S3Error } from 'minio';
import type { BlobStore } from '@veil/ports';

/**
 * Profile pictures in MinIO (or any S3 service) through the `minio` client. The bucket is
 * created at start if missing; objects keep their content type as S3 metadata.
 */
export interface MinioBlobOptions {
  /** e.g. http://minio:9000 */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

const isMissing = (error: unknown) =>
  error instanceof S3Error && ['NoSuchKey', 'NotFound', 'NoSuchObject'].includes(String(error.code));

const readAll = async (stream: NodeJS.ReadableStream): Promise<Uint8Array> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
};

const checkFolder = (prefix: string) => {
  if (!prefix.endsWith('/')) throw new Error(`A blob folder ends in "/": ${prefix}`);
};

export const createMinioBlobStore = async (options: MinioBlobOptions): Promise<BlobStore> => {
  const url = new URL(options.endpoint);
  const client = new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80,
    useSSL: url.protocol === 'https:',
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region,
    pathStyle: true,
  });
  if (!(await client.bucketExists(options.bucket))) {
    await client.makeBucket(options.bucket, options.region).catch(async (error: unknown) => {
      // Another replica may have created it a moment ago.
      if (!(await client.bucketExists(options.bucket))) throw error;
    });
  }

  const list = async (prefix: string) => {
    checkFolder(prefix);
    const keys: string[] = [];
    for await (const item of client.listObjectsV2(options.bucket, prefix, true) as AsyncIterable<{
      name?: string;
    }>) {
      if (item.name) keys.push(item.name);
    }
    return keys;
  };

  return {
    async put(key, bytes, contentType) {
      await client.putObject(options.bucket, key, Buffer.from(bytes), bytes.length, {
        'Content-Type': contentType,
      });
    },
    async get(key) {
      try {
        const [stat, stream] = await Promise.all([
          client.statObject(options.bucket, key),
          client.getObject(options.bucket, key),
        ]);
        const contentType = String(stat.metaData['content-type'] ?? 'application/octet-stream');
        return { bytes: await readAll(stream), contentType };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async delete(key) {
      await client.removeObject(options.bucket, key);
    },
    list,
    async deleteFolder(prefix) {
      const keys = await list(prefix);
      // DeleteObjects takes up to 1,000 keys a request.
      for (let i = 0; i < keys.length; i += 1000)
        await client.removeObjects(options.bucket, keys.slice(i, i + 1000));
    },
    async close() {},
  };
};
