/**
 * `npm run cluster`'s ports as offsets from PORT (the API gateway's), so a test or a benchmark
 * can run a second cluster beside the first: two realtime replicas right after the gateway, then
 * auth, user, chat and message, which serve only their probes.
 */
export const clusterPortOffsets = {
  gateway: 0,
  realtime: [1, 2],
  auth: 11,
  user: 12,
  chat: 13,
  message: 14,
} as const;

/** Every offset, for finding a free block of ports or waiting until each process is ready. */
export const allClusterPortOffsets: readonly number[] = Object.values(clusterPortOffsets).flat();
