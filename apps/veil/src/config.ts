import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defaultWritesPerUserPerMinute, usernameSchema } from '@veil/contracts';

/**
 * The only place that reads the environment. Each variable is validated and typed here; a bad
 * value stops the process at start with a message naming the variable. Which adapters run is
 * decided by presence alone: NATS_URL, REDIS_URL, MONGODB_URL, S3_ENDPOINT set means the real
 * component, absent means the embedded one. deploy/config-vars.json lists the same variables
 * for the Helm chart (a test keeps the two in step).
 */
export const serviceNames = ['auth', 'user', 'chat', 'message', 'gateway', 'realtime'] as const;
export type ServiceName = (typeof serviceNames)[number];
/** The services that keep read models (projections of the log). */
export const dataOwners: readonly ServiceName[] = ['user', 'auth', 'chat', 'message'];

const optionalUrl = (protocols: string[]) =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || protocols.some((p) => v.startsWith(p)), {
      message: `must start with ${protocols.join(' or ')}`,
    });

const list = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );

const jwkJson = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (!v) return undefined;
    try {
      return JSON.parse(v) as Record<string, unknown>;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JWK as JSON' });
      return z.NEVER;
    }
  });

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  VEIL_SERVICES: list
    .pipe(z.array(z.enum(serviceNames)))
    .transform((v) => (v.length ? v : [...serviceNames])),
  NATS_URL: optionalUrl(['nats://', 'tls://', 'ws://', 'wss://']),
  VEIL_STREAM_PREFIX: z
    .string()
    .regex(/^[a-z][a-z0-9_-]{0,30}$/, 'lowercase letters, digits, - or _')
    .default('veil'),
  REDIS_URL: optionalUrl(['redis://', 'rediss://']),
  MONGODB_URL: optionalUrl(['mongodb://', 'mongodb+srv://']),
  MONGODB_DB: z.string().default('veil'),
  S3_ENDPOINT: optionalUrl(['http://', 'https://']),
  S3_ACCESS_KEY: z.string().optional(),
  S3_SECRET_KEY: z.string().optional(),
  S3_BUCKET: z.string().default('veil-media'),
  S3_REGION: z.string().default('us-east-1'),
  JWT_PRIVATE_KEY: jwkJson,
  JWT_PUBLIC_KEY: jwkJson,
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(300).default(2_592_000),
  ALLOWED_ORIGINS: list,
  REALTIME_UPSTREAMS: list,
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * Browsers reach the app over HTTPS (TLS here or at a proxy): only then are HSTS and the CSP's
   * upgrade-insecure-requests sent. Over plain HTTP from a LAN address they would force the page's
   * scripts onto an https:// that does not exist, and the page would stay blank.
   */
  SERVED_OVER_HTTPS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `pretty`: readable lines; `json`: one JSON object a line; `auto`: pretty on a terminal, else JSON. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  INSTANCE_ID: z.string().default(hostname()),
  WEB_DIST: z.string().optional(),
  PRESENCE_TTL_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  /** Login attempts one client IP may make per 15 minutes (raise it for load tests from one host). */
  LOGIN_ATTEMPTS_PER_IP: z.coerce.number().int().min(1).default(100),
  /** A registration whose password never arrived this long after its username claim is undone. */
  REGISTRATION_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Writes (sends, profile changes, group creation) one signed-in user may make per minute. */
  WRITES_PER_USER_PER_MINUTE: z.coerce.number().int().min(1).default(defaultWritesPerUserPerMinute),
  /** The largest attachment, in bytes of the file (docs/attachments.md). */
  ATTACHMENT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(100 * 1024 * 1024),
  /** Encrypted attachment bytes one user may keep stored. */
  ATTACHMENT_QUOTA_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(2 * 1024 * 1024 * 1024),
  /** An upload never sent with a message is removed this long after it started. */
  ATTACHMENT_GRACE_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(24 * 60 * 60),
  /** How often the message service looks for such uploads. */
  ATTACHMENT_SWEEP_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(15 * 60),
  /** How often, at the least, the message service expires disappearing messages and removes deleted files. */
  MESSAGE_EXPIRY_CHECK_SECONDS: z.coerce.number().int().min(1).default(5),
  /**
   * Usernames holding the operator role: they read abuse reports and suspend accounts
   * (docs/decisions.md, "Operators and suspension"). Empty: no operators.
   */
  VEIL_OPERATORS: list.pipe(z.array(usernameSchema)),
  /** Writes without a user (register, login, refresh, logout) one client IP may make per minute. */
  WRITES_PER_IP_PER_MINUTE: z.coerce.number().int().min(1).default(300),
  /**
   * The Web Push (VAPID) key pair, base64url as `npm run keys` prints it. Without them the embedded
   * app generates a pair once and keeps it in DATA_DIR; a cluster sends no pushes.
   */
  VAPID_PUBLIC_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{87}$/, 'must be a base64url P-256 public key')
    .optional(),
  VAPID_PRIVATE_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a base64url P-256 private key')
    .optional(),
  /** Who runs this server, for push services to reach (a mailto: or https: URL). */
  VAPID_SUBJECT: z
    .string()
    .regex(/^(mailto:|https:\/\/)\S+$/, 'must be a mailto: or https: URL')
    .default('mailto:push@veil.invalid'),
  /** Accept push endpoints on plain http and on private or loopback hosts (development and tests only). */
  PUSH_ALLOW_LOCAL_ENDPOINTS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /**
   * STUN/TURN servers for calls (docs/calls.md), comma-separated `stun:`, `turn:` or `turns:`
   * URLs; the TURN ones need TURN_SECRET, the secret coturn shares (`static-auth-secret`).
   */
  TURN_URLS: list.pipe(
    z.array(z.string().regex(/^(stun|turns?):\S+$/, 'each must be a stun:, turn: or turns: URL')),
  ),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /** How long TURN credentials handed to a browser hold (the TURN REST scheme). */
  TURN_CREDENTIAL_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** Every call through TURN: the two sides never learn each other's IP address. */
  TURN_RELAY_ONLY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
});

export type VeilConfig = z.output<typeof envSchema> & { dataDir: string };

/** Every variable the config reads (deploy/config-vars.json documents each for the Helm chart). */
export const configVariableNames = Object.keys(envSchema.shape);

export class ConfigError extends Error {}

export const loadConfig = (env: Record<string, string | undefined> = process.env): VeilConfig => {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const config = parsed.data;
  if (Boolean(config.VAPID_PUBLIC_KEY) !== Boolean(config.VAPID_PRIVATE_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all',
    );
  }
  if (config.TURN_URLS.some((url) => url.startsWith('turn')) && !config.TURN_SECRET) {
    throw new ConfigError(
      'Invalid configuration:\n  TURN_SECRET is required with turn: or turns: URLs in TURN_URLS',
    );
  }
  if (config.TURN_RELAY_ONLY && !config.TURN_URLS.some((url) => url.startsWith('turn'))) {
    throw new ConfigError(
      'Invalid configuration:\n  TURN_RELAY_ONLY needs a turn: or turns: URL in TURN_URLS',
    );
  }
  if (config.S3_ENDPOINT && (!config.S3_ACCESS_KEY || !config.S3_SECRET_KEY)) {
    throw new ConfigError(
      'Invalid configuration:\n  S3_ACCESS_KEY and S3_SECRET_KEY are required with S3_ENDPOINT',
    );
  }
  return { ...config, dataDir: path.resolve(config.DATA_DIR) };
};

/** For the command-line entry points: the config, or the message naming the bad variable and exit code 2. */
export const loadConfigOrExit = (): VeilConfig => {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(2);
  }
};

/** Origins allowed for sockets when none are configured: the app's own address. */
export const allowedOrigins = (config: VeilConfig, port: number): string[] =>
  config.ALLOWED_ORIGINS.length
    ? config.ALLOWED_ORIGINS
    : [`http://localhost:${port}`, `http://127.0.0.1:${port}`, `http://[::1]:${port}`];
