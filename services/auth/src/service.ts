import { authRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { createAccessTokenSigner } from '@veil/tokens';
import { authRpcHandlers } from './handlers/rpc.handlers.ts';
import { createLoginLimiter } from './infra/login-limiter.ts';
import { credentialsProjection, openAuthReadModels } from './projections/credentials.projection.ts';
import type { AuthSettings } from './settings.ts';

/** The credentials projection, for tools that rebuild it. */
export const openProjection: OpenProjection = async (readStore) =>
  credentialsProjection(await openAuthReadModels(readStore));

export type { AuthSettings } from './settings.ts';

/** The auth service: credentials, login throttling, access tokens and rotating refresh tokens. */
export const start: StartService<AuthSettings> = async ({ ports, settings }) => {
  const models = await openAuthReadModels(ports.readStore);
  const limiter = createLoginLimiter({
    attemptsPerIp: settings.loginAttemptsPerIp,
    ...(settings.redisUrl ? { redisUrl: settings.redisUrl } : {}),
    ...(settings.redisKeyPrefix ? { keyPrefix: settings.redisKeyPrefix } : {}),
  });
  const signAccessToken = await createAccessTokenSigner(
    settings.accessTokenPrivateJwk,
    settings.accessTokenTtlSeconds,
  );
  return startProjectedRpcService(ports, {
    contract: authRpc,
    projection: credentialsProjection(models),
    handlers: (projection) =>
      authRpcHandlers({
        store: ports.bus,
        models,
        projection,
        limiter,
        signAccessToken,
        refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
        clock: ports.clock,
        ids: ports.ids,
        log: ports.log.child({ service: 'auth' }),
      }),
    onStop: () => limiter.close(),
  });
};
