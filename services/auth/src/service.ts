import { authRpc } from '@veil/contracts';
import { serveRpc, startProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { createAccessTokenSigner } from '@veil/tokens';
import { authRpcHandlers } from './handlers/rpc.handlers.ts';
import { createLoginLimiter } from './infra/login-limiter.ts';
import { credentialsProjection, openAuthReadModels } from './projections/credentials.projection.ts';
import type { AuthSettings } from './settings.ts';

export type { AuthSettings } from './settings.ts';

/** The auth service: credentials, login throttling, access tokens and rotating refresh tokens. */
export const start: StartService<AuthSettings> = async ({ ports, settings }) => {
  const log = ports.log.child({ service: 'auth' });
  const models = await openAuthReadModels(ports.readStore);
  const projection = await startProjection({
    bus: ports.bus,
    readStore: ports.readStore,
    log,
    definition: credentialsProjection(models),
  });
  await projection.catchUp();
  const limiter = createLoginLimiter({
    attemptsPerIp: settings.loginAttemptsPerIp,
    ...(settings.redisUrl ? { redisUrl: settings.redisUrl } : {}),
    ...(settings.redisKeyPrefix ? { keyPrefix: settings.redisKeyPrefix } : {}),
  });
  const signAccessToken = await createAccessTokenSigner(
    settings.accessTokenPrivateJwk,
    settings.accessTokenTtlSeconds,
  );
  const rpc = await serveRpc(
    ports.rpc,
    authRpc,
    authRpcHandlers({
      store: ports.bus,
      models,
      projection,
      limiter,
      signAccessToken,
      refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
      clock: ports.clock,
      ids: ports.ids,
      log,
    }),
  );
  return {
    async stop() {
      await rpc.stop();
      await projection.stop();
      await limiter.close();
    },
  };
};
