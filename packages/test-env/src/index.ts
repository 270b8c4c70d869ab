import { randomBytes } from 'node:crypto';

/**
 * What tests need from the run around them. The e2e tier's global setup (global-setup.ts) puts
 * the servers' addresses and the browser's path into the environment; a test reads them here,
 * when it needs them, so a missing one fails with a message instead of a connection error.
 */
const fromSetup = (variable: string): string => {
  const value = process.env[variable];
  if (!value)
    throw new Error(
      `${variable} is not set. The e2e tier's global setup sets it: run the test through vitest from the ` +
        'repository root (npm test, npm run test:e2e or npx vitest run <file>).',
    );
  return value;
};

export const natsUrl = (): string => fromSetup('NATS_URL');
export const redisUrl = (): string => fromSetup('REDIS_URL');

/**
 * How the browser tests launch Chromium (playwright-core's `chromium.launch`): headless, without
 * the sandbox (tests run as root in CI) and without the background traffic to Google's services,
 * which this machine's closed network refuses and which only slows the start.
 */
export const chromiumLaunchOptions = () => ({
  executablePath: fromSetup('CHROMIUM_PATH'),
  headless: true,
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-quic',
    '--no-first-run',
    // Calls: a fake microphone and camera, and no permission prompt (docs/calls.md, "Tests").
    '--use-fake-device-for-media-stream',
    '--use-fake-ui-for-media-stream',
  ],
});

/**
 * A name no other test, in this file or in any other running in parallel, will pick: for NATS
 * stream prefixes (VEIL_STREAM_PREFIX: lowercase, at most 31 characters), Redis key prefixes,
 * database and bucket names. 64 random bits after a readable tag that starts with a letter.
 */
export const uniquePrefix = (tag: string): string => {
  if (!/^[a-z][a-z0-9]{0,14}$/.test(tag))
    throw new Error(`a prefix tag is 1-15 lowercase letters or digits: ${tag}`);
  return `${tag}${randomBytes(8).toString('hex')}`;
};

export { embeddedEnv } from './embedded-env.ts';
export { freePort, freePortBlock } from './free-port.ts';
export {
  startRedisServer,
  startRestartableNats,
  startTurnServer,
  type RestartableNats,
  type TestTurnServer,
} from './test-servers.ts';
export { deleteRedisKeysUnder } from './redis-keys.ts';
export {
  startPushService,
  type ReceivedPush,
  type TestPushService,
  type TestPushSubscription,
} from './push-service.ts';
export { bundleForBrowser, openBundledPage } from './bundled-page.ts';
export {
  startHostileProxy,
  tokenSubject,
  type Direction,
  type EventRewrite,
  type HostileProxy,
  type JsonRewrite,
  type RecordedEvent,
  type RecordedRequest,
  type RouteContext,
  type SocketEvent,
  type Viewer,
} from './hostile-proxy.ts';
