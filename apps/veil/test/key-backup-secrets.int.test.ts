import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  exportPrivateKeyJwk,
  normalizeRecoveryKey,
  openKeyBackup,
  recoveryKeyBytesOf,
  recoveryKeyGroups,
  setBackupPassphrase,
} from '@veil/crypto';
import { everyReadModel } from './support/read-models.ts';
import { createApi } from './support/api-client.ts';
import { createBackedUpUser } from './support/key-backups.ts';
import { startTestVeil } from './support/test-veil.ts';

/**
 * The server never holds a key-backup secret: the embedded app runs as its own process with
 * every log line on (trace), a user registers with a backup, downloads it, changes the
 * passphrase and sends bad blobs; then everything the server wrote (the event log, blobs, keys,
 * every read model rebuilt from the log, and the captured logs) is searched for the recovery key,
 * both passphrases and the private key, in their usual encodings. None is there.
 */
const repoRoot = path.resolve(import.meta.dirname, '../../..');
let dataDir: string;
let server: ChildProcess;
let logs = '';

const startServer = async (): Promise<string> => {
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'trace',
  };
  // The embedded app: everything it writes is in DATA_DIR.
  for (const name of ['NATS_URL', 'REDIS_URL', 'MONGODB_URL', 'S3_ENDPOINT', 'VEIL_SERVICES'])
    delete env[name];
  server = spawn(process.execPath, ['apps/veil/src/bin/veil.ts'], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (chunk) => (logs += chunk));
  server.stderr!.on('data', (chunk) => (logs += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /Veil is running[^"]* on (http:\/\/[^\s"]+)/.exec(logs)?.[1];
    if (url) return url;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`Veil did not start:\n${logs}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

const stopServer = async () => {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
};

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'veil-backup-secrets-'));
}, 10_000);

afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

/** The ways a secret could end up written: as typed, canonical, raw bytes, base64, hex, URL-encoded. */
const encodingsOf = (text: string, bytes: Uint8Array = new TextEncoder().encode(text)): Buffer[] => {
  const raw = Buffer.from(bytes);
  return [
    Buffer.from(text),
    raw,
    Buffer.from(raw.toString('base64')),
    Buffer.from(raw.toString('base64url')),
    Buffer.from(raw.toString('hex')),
    Buffer.from(encodeURIComponent(text)),
  ];
};

describe('key backup secrets never reach the server', () => {
  it('leaves no recovery key, passphrase or private key in the log, read models, files or logs', async () => {
    const url = await startServer();
    const api = createApi(url);
    const firstPassphrase = `first passphrase ${randomBytes(8).toString('hex')}`;
    const secondPassphrase = `second passphrase ${randomBytes(8).toString('hex')}`;

    // What a browser does, with the same crypto module: register with a backup, then use it.
    const alice = await createBackedUpUser(api, 'secret', { passphrase: firstPassphrase });
    expect((await api.get('/api/v1/user/keyStatus', alice.accessToken)).status).toBe(200);
    const downloaded = (await api.get('/api/v1/user/keyBackup', alice.accessToken)).body.data.backup;
    await openKeyBackup(downloaded, { recoveryKey: alice.recoveryKey });
    const changed = await setBackupPassphrase(downloaded, { passphrase: firstPassphrase }, secondPassphrase);
    expect((await api.put('/api/v1/user/keyBackup', { backup: changed }, alice.accessToken)).status).toBe(
      200,
    );
    const refused = [
      { backup: { ...changed, version: 3 } },
      { backup: { ...changed, padding: 'x'.repeat(9000) } },
    ];
    for (const body of refused)
      expect(
        (await api.put('/api/v1/user/keyBackup', body, alice.accessToken)).status,
      ).toBeGreaterThanOrEqual(400);
    await stopServer();

    const recoveryKey = alice.recoveryKey;
    const canonical = normalizeRecoveryKey(recoveryKey)!;
    const pkcs8 = new Uint8Array(await crypto.subtle.exportKey('pkcs8', alice.keys.privateKey));
    const needles: [string, Buffer[]][] = [
      ['recovery key', encodingsOf(recoveryKey, recoveryKeyBytesOf(recoveryKey)!)],
      ['recovery key (canonical)', encodingsOf(canonical)],
      ['recovery key (lower case)', encodingsOf(canonical.toLowerCase())],
      ['recovery key (spaced)', encodingsOf(recoveryKeyGroups(recoveryKey).join(' '))],
      ['first passphrase', encodingsOf(firstPassphrase)],
      ['second passphrase', encodingsOf(secondPassphrase)],
      ['private key (PKCS#8)', encodingsOf('', pkcs8).slice(1, 5)],
      ['private key (JWK d)', [Buffer.from((await exportPrivateKeyJwk(alice.keys.privateKey)).d!)]],
    ];
    const expectNone = (where: string, haystack: Buffer) => {
      for (const [what, encodings] of needles)
        for (const needle of encodings)
          expect(haystack.includes(needle), `${what} (${needle.toString().slice(0, 24)}…) in ${where}`).toBe(
            false,
          );
    };

    // Logs were on at trace level and captured whole.
    expect(logs).toMatch(/"level":10|"level":20|"level":30/);
    expectNone('the logs', Buffer.from(logs));

    // Every file the server wrote: the event log (with the backups in it), token keys, blobs.
    const files = (await readdir(dataDir, { recursive: true, withFileTypes: true })).filter((e) =>
      e.isFile(),
    );
    expect(files.length).toBeGreaterThan(0);
    const eventLog = Buffer.concat(
      await Promise.all(files.map((file) => readFile(path.join(file.parentPath, file.name)))),
    );
    expect(eventLog.includes(Buffer.from(changed.privateKey.ciphertext)), 'the backup is stored').toBe(true);
    for (const file of files) expectNone(file.name, await readFile(path.join(file.parentPath, file.name)));

    // Every read model, as the services rebuild them from that log.
    const veil = await startTestVeil({}, dataDir);
    try {
      for (const name of everyReadModel(veil.ports)) {
        const docs = await (await veil.ports.readStore.collection(name)).find({});
        expectNone(`read model ${name}`, Buffer.from(JSON.stringify(docs)));
      }
    } finally {
      await veil.stop();
    }
  }, 120_000);
});
