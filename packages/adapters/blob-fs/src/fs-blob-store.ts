import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { BlobStore } from '@veil/ports';

/**
 * Blobs as files under one directory: `<dir>/<key>` holds the bytes, `<dir>/<key>.type` the
 * content type. Writes go to a temp file and are renamed into place, so a reader never sees
 * half a picture. Keys are checked so none can leave the directory.
 */
const keyPattern = /^[A-Za-z0-9_-][A-Za-z0-9/_.-]{0,255}$/;

export const createFsBlobStore = ({ dir }: { dir: string }): BlobStore => {
  const root = path.resolve(dir);
  const pathOf = (key: string) => {
    if (
      !keyPattern.test(key) ||
      key.split('/').some((part) => part === '' || part === '.' || part === '..')
    ) {
      throw new Error(`Invalid blob key: ${key}`);
    }
    return path.join(root, key);
  };
  const folderOf = (prefix: string) => {
    if (!prefix.endsWith('/')) throw new Error(`A blob folder ends in "/": ${prefix}`);
    return pathOf(prefix.slice(0, -1));
  };
  const writeAtomically = async (file: string, data: Uint8Array | string) => {
    const temp = `${file}.${randomUUID()}.tmp`;
    await writeFile(temp, data);
    await rename(temp, file);
  };

  return {
    async put(key, bytes, contentType) {
      const file = pathOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeAtomically(`${file}.type`, contentType);
      await writeAtomically(file, bytes);
    },
    async get(key) {
      const file = pathOf(key);
      try {
        const [bytes, contentType] = await Promise.all([readFile(file), readFile(`${file}.type`, 'utf8')]);
        return { bytes: new Uint8Array(bytes), contentType };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      const file = pathOf(key);
      await rm(file, { force: true });
      await rm(`${file}.type`, { force: true });
    },
    async list(prefix) {
      const folder = folderOf(prefix);
      let entries;
      try {
        entries = await readdir(folder, { recursive: true, withFileTypes: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      // A key's bytes are the file without a suffix: `.type` holds its content type, `.tmp` a write in flight.
      return entries
        .filter((entry) => entry.isFile() && !/\.(type|tmp)$/.test(entry.name))
        .map((entry) =>
          path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
        );
    },
    async deleteFolder(prefix) {
      // A write landing in the folder while it is removed makes the last rmdir fail (ENOTEMPTY):
      // try again, so a cancel racing an upload's chunks still removes them all.
      await rm(folderOf(prefix), { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    },
    async close() {},
  };
};
