import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onAbruptExit } from './exit-cleanup.ts';
import { freePort } from './free-port.ts';
import { startServerProcess, type ServerProcess } from './server-process.ts';

/** A server started for one test run, in a temporary directory of its own that goes with it. */
export interface TestServer {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const inTempDir = async (
  name: string,
  start: (dir: string) => Promise<{ url: string; server: ServerProcess }>,
): Promise<TestServer> => {
  const dir = mkdtempSync(path.join(tmpdir(), `veil-test-${name}-`));
  const forget = onAbruptExit(() => rmSync(dir, { recursive: true, force: true }));
  const removeDir = () => {
    forget();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const { url, server } = await start(dir);
    return {
      name,
      url,
      pid: server.pid,
      async stop() {
        await server.stop();
        removeDir();
      },
    };
  } catch (error) {
    removeDir();
    throw error;
  }
};

/**
 * `nats-server -js` on a port the OS picks (`-p -1`, read back from its log), JetStream storing
 * in the temporary directory.
 */
export const startNatsServer = (binary: string): Promise<TestServer> =>
  inTempDir('nats-server', async (dir) => {
    const server = await startServerProcess({
      name: 'nats-server',
      command: binary,
      args: ['-a', '127.0.0.1', '-p', '-1', '-js', '-sd', dir],
      ready: /Server is ready/,
    });
    const port = /Listening for client connections on [\d.]+:(\d+)/.exec(server.lastLines())?.[1];
    if (!port) {
      await server.stop();
      throw new Error(`nats-server did not say which port it listens on:\n${server.lastLines()}`);
    }
    return { url: `nats://127.0.0.1:${port}`, server };
  });

/**
 * `redis-server` without persistence on a free port. Redis cannot pick a port itself, so one is
 * chosen here, and another if something took it before Redis could bind it.
 */
export const startRedisServer = (binary: string, attempts = 5): Promise<TestServer> =>
  inTempDir('redis-server', async (dir) => {
    for (let attempt = 1; ; attempt += 1) {
      const port = await freePort();
      try {
        const server = await startServerProcess({
          name: 'redis-server',
          command: binary,
          args: [
            '--bind',
            '127.0.0.1',
            '--port',
            String(port),
            '--save',
            '',
            '--appendonly',
            'no',
            '--dir',
            dir,
          ],
          ready: /Ready to accept connections/,
        });
        return { url: `redis://127.0.0.1:${port}`, server };
      } catch (error) {
        if (attempt >= attempts || !/Address already in use/.test(String(error))) throw error;
      }
    }
  });

/** A NATS server that a test crashes and starts again, as an operator's restart would. */
export interface RestartableNats {
  url: string;
  /** kill -9: no shutdown, whatever JetStream had not synced is the store's problem. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store; resolves once it is ready. */
  start(): Promise<void>;
  /** Stops it (if running) and removes its store. */
  stop(): Promise<void>;
}

/** `nats-server -js` on a free port and a store of its own, both kept across restarts. */
export const startRestartableNats = async (binary = 'nats-server'): Promise<RestartableNats> => {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'veil-test-nats-store-'));
  const forgetDir = onAbruptExit(() => rmSync(dir, { recursive: true, force: true }));
  let server: ServerProcess | undefined;
  const start = async () => {
    server = await startServerProcess({
      name: 'nats-server',
      command: binary,
      args: ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir],
      ready: /Server is ready/,
    });
  };
  try {
    await start();
  } catch (error) {
    forgetDir();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    kill: () => server!.kill(),
    start,
    async stop() {
      await server?.stop();
      forgetDir();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};

/** A TURN server for call tests: where it listens, and the secret its credentials are made with. */
export interface TestTurnServer extends TestServer {
  /** `turn:127.0.0.1:<port>` (UDP). */
  turnUrl: string;
  secret: string;
}

/**
 * Debian's coturn (`turnserver`) on loopback, for calls forced through a relay: TURN REST
 * credentials (`use-auth-secret`) with a random secret, relaying between loopback addresses (which
 * a production server must refuse, and this one allows for the test), no TLS, no CLI, its
 * database in the temporary directory. Like Redis, it cannot pick its ports, so a listening port
 * and a relay range are chosen here, and others if something took them first; started `again`,
 * it listens where the stopped one did, with its secret (a relay that went away and came back).
 */
export const startTurnServer = (
  /** `again`: the port and secret of a server stopped before, to start it again where it was. */
  again?: Pick<TestTurnServer, 'turnUrl' | 'secret'>,
  binary = 'turnserver',
  attempts = again ? 1 : 5,
): Promise<TestTurnServer> => {
  const secret = again?.secret ?? randomBytes(24).toString('hex');
  const samePort = again ? Number(new URL(again.turnUrl.replace(/^turn:/, 'turn://')).port) : null;
  let turnUrl = '';
  return inTempDir('turnserver', async (dir) => {
    for (let attempt = 1; ; attempt += 1) {
      const port = samePort ?? (await freePort());
      const relayBase = 50_000 + Math.floor(Math.random() * 150) * 100;
      try {
        const server = await startServerProcess({
          name: 'turnserver',
          command: binary,
          args: [
            '-n',
            '--listening-ip=127.0.0.1',
            '--relay-ip=127.0.0.1',
            `--listening-port=${port}`,
            `--min-port=${relayBase}`,
            `--max-port=${relayBase + 99}`,
            '--use-auth-secret',
            `--static-auth-secret=${secret}`,
            '--realm=veil.test',
            '--no-tls',
            '--no-dtls',
            '--no-cli',
            '--allow-loopback-peers',
            '--log-file=stdout',
            '--simple-log',
            `--pidfile=${path.join(dir, 'turnserver.pid')}`,
            `--userdb=${path.join(dir, 'turndb')}`,
          ],
          ready: /Total General servers/,
        });
        turnUrl = `turn:127.0.0.1:${port}`;
        return { url: turnUrl, server };
      } catch (error) {
        if (attempt >= attempts || !/Address already in use|Cannot bind/i.test(String(error))) throw error;
      }
    }
  }).then((server) => ({ ...server, turnUrl, secret }));
};
