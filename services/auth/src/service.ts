import { authRpc } from '@veil/contracts';
import { startProjectedRpcService, type OpenProjection } from '@veil/kernel';
import type { StartService } from '@veil/ports';
import { createAccessTokenSigner } from '@veil/tokens';
import { authRpcHandlers } from './handlers/rpc.handlers.ts';
import { abandonedRegistrationSweep } from './handlers/abandoned-registrations.ts';
import { loginThrottle } from './handlers/login-throttle.ts';
import { credentialsProjection, openAuthReadModels } from './projections/credentials.projection.ts';
import type { AuthSettings } from './settings.ts';

/** The credentials projection, for tools that rebuild it. */
export const openProjection: OpenProjection = async (readStore) =>
  credentialsProjection(await openAuthReadModels(readStore));

export type { AuthSettings } from './settings.ts';

/** The auth service: credentials, login throttling, access tokens and rotating refresh tokens. */
export const start: StartService<AuthSettings> = async ({ ports, settings }) => {
  const models = await openAuthReadModels(ports.readStore);
  const throttle = loginThrottle(ports.rateLimits, settings.loginAttemptsPerIp);
  const signAccessToken = await createAccessTokenSigner(
    settings.accessTokenPrivateJwk,
    settings.accessTokenTtlSeconds,
  );
  const log = ports.log.child({ service: 'auth' });
  const sweep = abandonedRegistrationSweep({
    ...ports,
    models,
    timeoutMs: settings.registrationTimeoutSeconds * 1000,
  });
  let sweeping: Promise<void> | null = null;
  const sweeper = setInterval(
    () => {
      sweeping ??= sweep()
        .catch((err: unknown) => log.warn({ err }, 'sweep of abandoned registrations failed'))
        .finally(() => (sweeping = null));
    },
    Math.min(30_000, (settings.registrationTimeoutSeconds * 1000) / 2),
  );
  sweeper.unref();
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
        log,
      }),
    onStop: async () => {
      clearInterval(sweeper);
      await sweeping;
    },
  });
};
