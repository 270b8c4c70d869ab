import { userRpc } from '@veil/contracts';
import { startProjectedRpcService } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { userRpcHandlers } from './handlers/rpc.handlers.ts';
import { createKeyBackupLimiter } from './infra/key-backup-limiter.ts';
import { openUserDirectory, userDirectoryProjection } from './projections/user-directory.projection.ts';
import type { UserSettings } from './settings.ts';

export type { UserSettings } from './settings.ts';

/** The user service: usernames, profiles, public keys, the user directory and encrypted key backups. */
export const start: StartService<UserSettings> = async ({ ports, settings }) => {
  const users = await openUserDirectory(ports.readStore);
  const limiter = createKeyBackupLimiter({
    ...(settings.redisUrl ? { redisUrl: settings.redisUrl } : {}),
    ...(settings.redisKeyPrefix ? { keyPrefix: settings.redisKeyPrefix } : {}),
  });
  return startProjectedRpcService(ports, {
    contract: userRpc,
    projection: userDirectoryProjection(users),
    handlers: (directory) =>
      userRpcHandlers({ store: ports.bus, users, directory, limiter, clock: ports.clock, ids: ports.ids }),
    onStop: () => limiter.close(),
  });
};
