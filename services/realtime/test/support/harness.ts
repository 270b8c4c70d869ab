import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventBus, Logger, RealtimeScaling, Rpc } from '@veil/ports';
import { createAccessTokenSigner, generateTokenKeyPair, type TokenKeyPair } from '@veil/tokens';
import { start } from '../../src/service.ts';
import type { RealtimeSettings } from '../../src/settings.ts';
import type { FakeMessageService } from './fake-message-service.ts';
import { realtimePorts } from './test-ports.ts';

/** The Origin every test client sends, and the one each test node allows. */
export const testOrigin = 'http://app.veil.test';

/** Links in the suite expire this soon, so a test can watch one expire. */
export const linkTtlSeconds = 4;

/** What the shared suite needs from a single node or a cluster of replicas. */
export interface RealtimeCluster {
  /** Base URLs of the replicas; clients are spread over them round-robin. */
  nodes: string[];
  /** A bus connection of its own, for appending the events other services would append. */
  bus: EventBus;
  keys: TokenKeyPair;
  messageService: FakeMessageService;
  teardown(): Promise<void>;
}

export interface RunningNode {
  url: string;
  stop(): Promise<void>;
}

/** One realtime replica on its own loopback HTTP server, started exactly as the runtime does. */
export const startRealtimeNode = async (input: {
  bus: EventBus;
  rpc: Rpc;
  settings: RealtimeSettings;
  log?: Logger;
  /** Redis scaling for a replica of several; the memory one by default. */
  scaling?: RealtimeScaling;
}): Promise<RunningNode> => {
  let handler: RequestListener = (_req, res) => {
    res.writeHead(404).end();
  };
  const server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const service = await start({
    ports: realtimePorts(input.bus, input.rpc, input.log, input.scaling),
    settings: input.settings,
    http: { server, setRequestHandler: (listener) => void (handler = listener) },
  }).catch(async (error: unknown) => {
    server.close();
    throw error;
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      await service.stop();
      await input.scaling?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export const newTokenKeys = (): Promise<TokenKeyPair> => generateTokenKeyPair();

/** An access token as the auth service issues it; `issuedAt` in the past makes expired ones. */
export const signToken = async (
  keys: TokenKeyPair,
  userId: string,
  options: { ttlSeconds?: number; issuedAt?: Date } = {},
): Promise<string> => {
  const sign = await createAccessTokenSigner(keys.privateJwk, options.ttlSeconds ?? 900);
  return (await sign(userId, 'test-session', options.issuedAt ?? new Date())).token;
};
