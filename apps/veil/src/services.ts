import type { JWK } from 'jose';
import type { OpenProjection } from '@veil/kernel';
import type { RunningService, ServiceContext, StartService } from '@veil/ports';
import { createWebPushDelivery, type VapidKeys } from '@veil/web-push';
import { allowedOrigins, type ServiceName, type VeilConfig } from './config.ts';

/**
 * The lazy service registry (Outline's services/index.ts): a process imports only the
 * services it runs, and each gets its settings from the one validated config.
 */
export interface SettingsInput {
  config: VeilConfig;
  keys: { privateJwk?: JWK; publicJwk?: JWK; vapid?: VapidKeys };
  port: number;
  webDist: string | undefined;
}

interface Registration<TSettings> {
  /** The service's module: `start`, and for services with read models `openProjection` (rebuilds). */
  load: () => Promise<{ start: StartService<TSettings>; openProjection?: OpenProjection }>;
  settings: (input: SettingsInput) => TSettings;
  http: boolean;
}

/** A service as the process starts it: its settings are built and typed here, so callers need none of its types. */
export interface RegisteredService {
  http: boolean;
  start: (input: SettingsInput, ctx: Omit<ServiceContext, 'settings'>) => Promise<RunningService>;
  openProjection: () => Promise<OpenProjection | undefined>;
}

/** Checks a registration's settings against its service's `start` (inferred from both), then hides the type. */
const register = <TSettings>(registration: Registration<TSettings>): RegisteredService => ({
  http: registration.http,
  start: async (input, ctx) =>
    (await registration.load()).start({ ...ctx, settings: registration.settings(input) }),
  openProjection: async () => (await registration.load()).openProjection,
});

const need = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} is required for this service`);
  return value;
};

export const registry: Record<ServiceName, RegisteredService> = {
  auth: register({
    load: () => import('@veil/auth-service/service'),
    http: false,
    settings: ({ config, keys }) => ({
      accessTokenPrivateJwk: need(keys.privateJwk, 'JWT_PRIVATE_KEY'),
      accessTokenTtlSeconds: config.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.REFRESH_TOKEN_TTL_SECONDS,
      loginAttemptsPerIp: config.LOGIN_ATTEMPTS_PER_IP,
      registrationTimeoutSeconds: config.REGISTRATION_TIMEOUT_SECONDS,
    }),
  }),
  user: register({
    load: () => import('@veil/user-service/service'),
    http: false,
    settings: () => ({}),
  }),
  chat: register({ load: () => import('@veil/chat-service/service'), http: false, settings: () => ({}) }),
  message: register({
    load: () => import('@veil/message-service/service'),
    http: false,
    settings: ({ config, keys }) => ({
      push: keys.vapid && {
        delivery: createWebPushDelivery({ ...keys.vapid, subject: config.VAPID_SUBJECT }),
        allowLocalEndpoints: config.PUSH_ALLOW_LOCAL_ENDPOINTS,
        maxSubscriptionsPerUser: 20,
      },
      attachments: {
        maxFileBytes: config.ATTACHMENT_MAX_BYTES,
        quotaBytes: config.ATTACHMENT_QUOTA_BYTES,
        graceSeconds: config.ATTACHMENT_GRACE_SECONDS,
        sweepIntervalSeconds: config.ATTACHMENT_SWEEP_SECONDS,
      },
      expiryCheckSeconds: config.MESSAGE_EXPIRY_CHECK_SECONDS,
    }),
  }),
  gateway: register({
    load: () => import('@veil/gateway-service/service'),
    http: true,
    settings: ({ config, keys, webDist }) => ({
      accessTokenPublicJwk: need(keys.publicJwk, 'JWT_PUBLIC_KEY'),
      webDist,
      realtimeUpstreams: config.REALTIME_UPSTREAMS,
      trustProxyHops: config.TRUST_PROXY_HOPS,
      servedOverHttps: config.SERVED_OVER_HTTPS,
      operators: config.VEIL_OPERATORS,
      writeBudgets: {
        perUserPerMinute: config.WRITES_PER_USER_PER_MINUTE,
        perIpPerMinute: config.WRITES_PER_IP_PER_MINUTE,
      },
      rpcTimeoutMs: config.RPC_TIMEOUT_MS,
      ...(config.TURN_URLS.length && {
        turn: {
          urls: config.TURN_URLS,
          ...(config.TURN_SECRET && { secret: config.TURN_SECRET }),
          ttlSeconds: config.TURN_CREDENTIAL_TTL_SECONDS,
          relayOnly: config.TURN_RELAY_ONLY,
        },
      }),
    }),
  }),
  realtime: register({
    load: () => import('@veil/realtime-service/service'),
    http: true,
    settings: ({ config, keys, port }) => ({
      accessTokenPublicJwk: need(keys.publicJwk, 'JWT_PUBLIC_KEY'),
      allowedOrigins: allowedOrigins(config, port),
      instanceId: config.INSTANCE_ID,
      presenceTtlSeconds: config.PRESENCE_TTL_SECONDS,
      writesPerUserPerMinute: config.WRITES_PER_USER_PER_MINUTE,
    }),
  }),
};

/** Start order: owners of data first, edges last, so the gateways never face a missing service. */
export const startOrder: ServiceName[] = ['user', 'auth', 'chat', 'message', 'realtime', 'gateway'];
