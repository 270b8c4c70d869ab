import { userRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { keyBackupLimiter } from './handlers/key-backup-limits.ts';
import { userRpcHandlers } from './handlers/rpc.handlers.ts';
import { openUserDirectory, userDirectoryProjection } from './projections/user-directory.projection.ts';

/** The user directory's projection, for tools that rebuild it. */
export const openProjection: OpenProjection = async (readStore) =>
  userDirectoryProjection(await openUserDirectory(readStore));

/** The user service: usernames, profiles, public keys, the user directory and encrypted key backups. */
export const start: StartService = async ({ ports }) => {
  const users = await openUserDirectory(ports.readStore);
  const limiter = keyBackupLimiter(ports.rateLimits);
  return startProjectedRpcService(ports, {
    contract: userRpc,
    projection: userDirectoryProjection(users),
    handlers: (directory) =>
      userRpcHandlers({ store: ports.bus, users, directory, limiter, clock: ports.clock, ids: ports.ids }),
  });
};
