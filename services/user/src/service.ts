import { userRpc } from '@veil/contracts';
import { serveRpc, startProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { userRpcHandlers } from './handlers/rpc.handlers.ts';
import { openUserDirectory, userDirectoryProjection } from './projections/user-directory.projection.ts';

/** The user service: usernames, profiles, public keys and the user directory. */
export const start: StartService = async ({ ports }) => {
  const log = ports.log.child({ service: 'user' });
  const users = await openUserDirectory(ports.readStore);
  const directory = await startProjection({
    bus: ports.bus,
    readStore: ports.readStore,
    log,
    definition: userDirectoryProjection(users),
  });
  await directory.catchUp();
  const rpc = await serveRpc(
    ports.rpc,
    userRpc,
    userRpcHandlers({ store: ports.bus, users, directory, clock: ports.clock, ids: ports.ids }),
  );
  return {
    async stop() {
      await rpc.stop();
      await directory.stop();
    },
  };
};
