import { createECDH, randomBytes, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';

/** http_ece (RFC 8188, the encoding Web Push uses) ships no types: the one function used here. */
const { decrypt } = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer;
};

/** One request a Veil server posted to the test push service. */
export interface ReceivedPush {
  /** Which subscription it was for (the endpoint's last path segment). */
  name: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A browser's side of one subscription: the endpoint and keys it hands the server, and its private key. */
export interface TestPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** Opens a push body as the browser would (RFC 8291, aes128gcm). */
  decrypt(body: Buffer): string;
}

/**
 * A push service on loopback for tests: records what it is posted, answers 201 (or the status
 * set for a subscription, e.g. 410 once it is "gone"), and makes subscriptions with real P-256
 * keys, so a test can check that a push decrypts for the browser and for no one else.
 */
export const startPushService = async () => {
  const received: ReceivedPush[] = [];
  const statuses = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const name = decodeURIComponent((req.url ?? '').split('/').pop() ?? '');
      received.push({ name, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(statuses.get(name) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    received,
    /** What `name`'s endpoint answers from now on. */
    answer(name: string, status: number) {
      statuses.set(name, status);
    },
    subscription(name: string): TestPushSubscription {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const authSecret = randomBytes(16).toString('base64url');
      return {
        endpoint: `http://127.0.0.1:${port}/push/${encodeURIComponent(name)}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: authSecret },
        decrypt: (body) =>
          decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret }).toString('utf8'),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type TestPushService = Awaited<ReturnType<typeof startPushService>>;
