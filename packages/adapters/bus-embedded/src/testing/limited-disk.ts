/**
 * A log file on a disk with a settable amount of free space, for fault tests: the log's writer
 * thread reads the limit before each commit and SQLite refuses to grow the file past it with
 * SQLITE_FULL, the error a full file system gives it. Pass `pageLimit` to `createEmbeddedBus`.
 */
export const limitedDisk = () => {
  const pageLimit = new Int32Array(new SharedArrayBuffer(4));
  pageLimit[0] = -1;
  return {
    pageLimit,
    /** Pages (4 KB each) the file may still grow by; Infinity: no limit. */
    setFreePages(pages: number) {
      Atomics.store(pageLimit, 0, pages === Infinity ? -1 : pages);
    },
  };
};
