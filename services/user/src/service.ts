import { userRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { keyBackupLimiter, keyResetLimiter } from './handlers/key-backup-limits.ts';
import { userRpcHandlers } from './handlers/rpc.handlers.ts';
import {
  openKeyLogs,
  openUserDirectory,
  userDirectoryProjection,
} from './projections/user-directory.projection.ts';

/** The user directory's projection, for tools that rebuild it. */
export const openProjection: OpenProjection = async (readStore) =>
  userDirectoryProjection(await openUserDirectory(readStore), await openKeyLogs(readStore));

/** The user service: usernames, profiles, public keys, the user directory and encrypted key backups. */
export const start: StartService = async ({ ports }) => {
  const [users, keyLogs] = await Promise.all([
    openUserDirectory(ports.readStore),
    openKeyLogs(ports.readStore),
  ]);
  const limiter = keyBackupLimiter(ports.rateLimits);
  const spendKeyReset = keyResetLimiter(ports.rateLimits);
  return startProjectedRpcService(ports, {
    contract: userRpc,
    projection: userDirectoryProjection(users, keyLogs),
    handlers: (directory) =>
      userRpcHandlers({
        store: ports.bus,
        users,
        keyLogs,
        directory,
        limiter,
        spendKeyReset,
        clock: ports.clock,
        ids: ports.ids,
      }),
  });
};
