import { open } from 'node:fs/promises';
import type { LogFileHandle } from '../context-log.ts';

const noSpace = () =>
  Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28 });

/**
 * Real files on a disk with a settable amount of free space, for fault tests: a write stores the
 * bytes that fit and reports success (a short write), the next one fails with ENOSPC, as a full
 * file system does. Truncating gives the space back.
 */
export const limitedDisk = () => {
  let free = Infinity;
  const openFile = async (file: string, flags: number): Promise<LogFileHandle> => {
    const real = await open(file, flags);
    return {
      async write(buffer, offset, length) {
        if (free <= 0) throw noSpace();
        const written = await real.write(buffer, offset, Math.min(length, free));
        free -= written.bytesWritten;
        return written;
      },
      async truncate(length) {
        const { size } = await real.stat();
        await real.truncate(length);
        free += size - length;
      },
      datasync: () => real.datasync(),
      sync: () => real.sync(),
      stat: () => real.stat(),
      close: () => real.close(),
    };
  };
  return {
    openFile,
    setFreeBytes(bytes: number) {
      free = bytes;
    },
  };
};
