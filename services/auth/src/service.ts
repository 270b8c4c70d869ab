import { authRpc } from '@veil/contracts';
import { startProjectedRpcService } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { createAccessTokenSigner } from '@veil/tokens';
import { authRpcHandlers } from './handlers/rpc.handlers.ts';
import { loginThrottle } from './handlers/login-throttle.ts';
import { credentialsProjection, openAuthReadModels } from './projections/credentials.projection.ts';
import type { AuthSettings } from './settings.ts';

export type { AuthSettings } from './settings.ts';

/** The auth service: credentials, login throttling, access tokens and rotating refresh tokens. */
export const start: StartService<AuthSettings> = async ({ ports, settings }) => {
  const models = await openAuthReadModels(ports.readStore);
  const throttle = loginThrottle(ports.rateLimits, settings.loginAttemptsPerIp);
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
        throttle,
        signAccessToken,
        refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
        clock: ports.clock,
        ids: ports.ids,
        log: ports.log.child({ service: 'auth' }),
      }),
  });
};
