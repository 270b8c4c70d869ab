import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  argon2idParams,
  createKeyBackup,
  decryptMessage,
  encryptMessage,
  exportPublicKeySpkiBase64,
  generateRecoveryKey,
  generateUserKeyPair,
  openAccountState,
  openKeyBackup,
  sealAccountState,
  setBackupPassphrase,
} from '@veil/crypto';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { expectJsonError } from '../support/json-errors.ts';
import { createBackedUpUser } from '../support/key-backups.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createSigningUser, createUser, registerForm, uniqueName } from '../support/users.ts';

/** The user service's per-account budgets (services/user/src/infra/key-backup-limiter.ts). */
const downloadsPerHour = 6;
const writesPerHour = 20;

/** Argon2id parameters a planted backup might name to hang or exhaust the browser that opens it. */
const argon2idOutOfBounds: [string, Record<string, unknown>, RegExp][] = [
  ['below OWASP memory', { memoryKiB: 1024 }, /memoryKiB must be at least/],
  ['4 GiB of memory', { memoryKiB: 4 * 1024 * 1024 }, /memoryKiB must be at most/],
  ['a million passes', { iterations: 1_000_000 }, /iterations must be at most/],
  ['one pass', { iterations: 1 }, /iterations must be at least/],
  ['memory × passes too large', { memoryKiB: 262_144, iterations: 16 }, /memoryKiB × iterations/],
  ['four lanes', { parallelism: 4 }, /parallelism/],
  ['an extra parameter', { version: 16 }, /Unrecognized key/],
];

/**
 * The encrypted key backup over real HTTP, as an attacker would try it: someone else's backup,
 * no token, oversized and malformed blobs, repeated downloads. Run on the embedded app and on
 * NATS + Redis.
 */
export const keyBackupSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
  });
  afterAll(() => veil.destroy());

  const keyStatus = async (token: string) => {
    const res = await api.get('/api/v1/user/keyStatus', token);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  it('keeps the backup made at registration and gives it back to its owner, who can open it', async () => {
    const alice = await createBackedUpUser(api, 'kbown', { passphrase: 'alice passphrase' });
    const status = await keyStatus(alice.accessToken);
    expect(status).toEqual({
      publicKey: alice.publicKey,
      signingKey: null,
      publishedAt: expect.any(String),
      backup: {
        storedAt: expect.any(String),
        unlocks: ['recovery-key', 'passphrase'],
        holdsSigningKey: false,
      },
    });

    const res = await api.get('/api/v1/user/keyBackup', alice.accessToken);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ backup: alice.backup, storedAt: status.backup.storedAt });
    const envelope = await encryptMessage('history', { [alice._id]: alice.keys.publicKey });
    const restored = await openKeyBackup(res.body.data.backup, { recoveryKey: alice.recoveryKey });
    expect(await decryptMessage(envelope, alice._id, restored)).toBe('history');
  });

  it("gives no way to read another account's backup: one answer for someone else's and for none", async () => {
    const alice = await createBackedUpUser(api, 'kbvic');
    const bob = await createUser(api, 'kbatk');
    expect((await keyStatus(bob.accessToken)).backup).toBeNull();

    const none = await api.get('/api/v1/user/keyBackup', bob.accessToken);
    expectJsonError(none, 404, 'NOT_FOUND');
    // Naming alice anywhere in the request changes nothing: the account is the token's.
    for (const path of [
      `/api/v1/user/keyBackup?userId=${alice._id}`,
      `/api/v1/user/keyBackup?user=${alice._id}&_id=${alice._id}`,
    ]) {
      const probe = await api.get(path, bob.accessToken);
      expect(probe.status).toBe(none.status);
      expect(probe.body).toEqual(none.body);
    }
    const byPath = await api.get(`/api/v1/user/keyBackup/${alice._id}`, bob.accessToken);
    expect(byPath.status).toBe(404);
    expect(JSON.stringify(byPath.body)).not.toContain(alice.backup.privateKey.ciphertext);

    // Nor can bob put a backup in alice's place: his token names his account, whose key it is not.
    const overwrite = await api.put('/api/v1/user/keyBackup', { backup: alice.backup }, bob.accessToken);
    expectJsonError(overwrite, 400, 'VALIDATION_FAILED', /published key/);
    expect((await keyStatus(bob.accessToken)).backup).toBeNull();
    const still = await api.get('/api/v1/user/keyBackup', alice.accessToken);
    expect(still.body.data.backup).toEqual(alice.backup);
  });

  it('refuses every backup call without a valid token', async () => {
    const alice = await createBackedUpUser(api, 'kbnotok');
    for (const token of [undefined, 'not-a-jwt', `${alice.accessToken.slice(0, -4)}AAAA`]) {
      expectJsonError(await api.get('/api/v1/user/keyStatus', token), 401);
      expectJsonError(await api.get('/api/v1/user/keyBackup', token), 401);
      const put = await api.put('/api/v1/user/keyBackup', { backup: alice.backup }, token);
      expectJsonError(put, 401);
    }
    expect((await keyStatus(alice.accessToken)).backup.unlocks).toEqual(['recovery-key']);
  });

  it('refuses oversized and malformed backups with a clear 4xx, and stores nothing', async () => {
    const alice = await createBackedUpUser(api, 'kbbad');
    const before = await keyStatus(alice.accessToken);
    const good = alice.backup;
    const [recovery] = good.unlocks;
    const put = (body: unknown) => api.put('/api/v1/user/keyBackup', body, alice.accessToken);

    const huge = { ...good, privateKey: { ...good.privateKey, ciphertext: 'A'.repeat(600 * 1024) } };
    expectJsonError(await put({ backup: huge }), 413, 'PAYLOAD_TOO_LARGE', /too large/);
    const padded = { ...good, padding: 'x'.repeat(600 * 1024) };
    expectJsonError(await put({ backup: padded }), 413, 'PAYLOAD_TOO_LARGE');

    const malformed: [string, unknown, RegExp][] = [
      ['no backup', {}, /backup is required/],
      ['a list', [good], /body/i],
      ['a string', { backup: 'backup' }, /object/],
      ['an extra field', { backup: good, note: 'hi' }, /Unrecognized key: "note"/],
      ['an unknown version', { backup: { ...good, version: 3 } }, /version/],
      ['no recovery key', { backup: { ...good, unlocks: [] } }, /recovery-key/],
      ['two recovery keys', { backup: { ...good, unlocks: [recovery, recovery] } }, /recovery-key/],
      ['a field the format lacks', { backup: { ...good, plaintext: 'x' } }, /plaintext|Unrecognized/],
      [
        'a short wrapped key',
        { backup: { ...good, unlocks: [{ ...recovery, wrappedKey: 'QUJD' }] } },
        /wrappedKey/,
      ],
      ['a bad iv', { backup: { ...good, privateKey: { ...good.privateKey, iv: 'not base64!!' } } }, /iv/],
      [
        'too few iterations',
        {
          backup: {
            ...good,
            unlocks: [
              recovery,
              {
                kind: 'passphrase',
                kdf: { name: 'PBKDF2-SHA256', salt: recovery!.kdf.salt, iterations: 1000 },
                iv: recovery!.iv,
                wrappedKey: recovery!.wrappedKey,
              },
            ],
          },
        },
        /iterations/,
      ],
      ['an unknown KDF', { backup: { ...good, unlocks: [{ ...recovery, kdf: { name: 'MD5' } }] } }, /./],
      ...argon2idOutOfBounds.map(([what, kdf, message]): [string, unknown, RegExp] => [
        `Argon2id ${what}`,
        {
          backup: {
            ...good,
            unlocks: [
              recovery,
              {
                kind: 'passphrase',
                kdf: { name: 'Argon2id', salt: recovery!.kdf.salt, ...argon2idParams, ...kdf },
                iv: recovery!.iv,
                wrappedKey: recovery!.wrappedKey,
              },
            ],
          },
        },
        message,
      ]),
    ];
    for (const [what, body, message] of malformed) {
      const res = await put(body);
      expect(res.status, what).toBe(400);
      expect(res.body, what).toMatchObject({ success: false, code: 'VALIDATION_FAILED' });
      expect(res.body.message, what).toMatch(message);
    }
    const notJson = await api.call('PUT', '/api/v1/user/keyBackup', {
      token: alice.accessToken,
      raw: { body: '{"backup": {', contentType: 'application/json' },
    });
    expectJsonError(notJson, 400, 'VALIDATION_FAILED');

    expect(await keyStatus(alice.accessToken)).toEqual(before);
    expect((await api.get('/api/v1/user/keyBackup', alice.accessToken)).body.data.backup).toEqual(good);
  });

  it('refuses a registration whose backup is malformed or of another key, and creates no account', async () => {
    const keys = await generateUserKeyPair();
    const publicKey = await exportPublicKeySpkiBase64(keys.publicKey);
    const other = await generateUserKeyPair();
    const recoveryKey = generateRecoveryKey();
    const ofOtherKey = await createKeyBackup({
      privateKey: other.privateKey,
      publicKey: await exportPublicKeySpkiBase64(other.publicKey),
      recoveryKey,
    });
    const cases: [string, number, RegExp][] = [
      ['{"version": 1', 400, /JSON/],
      [JSON.stringify({ ...ofOtherKey, publicKey }).replace(/"version":\d/, '"version":9'), 400, /version/],
      [JSON.stringify(ofOtherKey), 400, /published key/],
      [JSON.stringify({ ...ofOtherKey, padding: 'x'.repeat(600 * 1024) }), 413, /too large/],
    ];
    for (const [keyBackup, status, message] of cases) {
      const username = uniqueName('kbreg');
      const res = await api.call('POST', '/api/v1/user/register', {
        form: registerForm({ username, password: 'password123', publicKey, keyBackup }),
      });
      expect(res.status, keyBackup.slice(0, 40)).toBe(status);
      expect(res.body.message).toMatch(message);
      const login = await api.post('/api/v1/user/login', { username, password: 'password123' });
      expect(login.status).toBe(401);
    }
  });

  it('replaces the backup when the passphrase changes: the newest one is served, same key inside', async () => {
    const alice = await createBackedUpUser(api, 'kbchg', { passphrase: 'first passphrase' });
    const changed = await setBackupPassphrase(
      alice.backup,
      { passphrase: 'first passphrase' },
      'second passphrase',
    );
    const stored = await api.put('/api/v1/user/keyBackup', { backup: changed }, alice.accessToken);
    expect(stored.status).toBe(200);
    expect(stored.body.data).toEqual({
      storedAt: expect.any(String),
      unlocks: ['recovery-key', 'passphrase'],
      holdsSigningKey: false,
    });
    const served = (await api.get('/api/v1/user/keyBackup', alice.accessToken)).body.data.backup;
    expect(served).toEqual(changed);
    const envelope = await encryptMessage('after the change', { me: alice.keys.publicKey });
    const opened = await openKeyBackup(served, { passphrase: 'second passphrase' });
    expect(await decryptMessage(envelope, 'me', opened)).toBe('after the change');

    const removed = await setBackupPassphrase(changed, { recoveryKey: alice.recoveryKey }, null);
    expect((await api.put('/api/v1/user/keyBackup', { backup: removed }, alice.accessToken)).status).toBe(
      200,
    );
    expect((await keyStatus(alice.accessToken)).backup.unlocks).toEqual(['recovery-key']);
  });

  it('creates a backup later for an account that registered without one', async () => {
    const bob = await createUser(api, 'kblate');
    const recoveryKey = generateRecoveryKey();
    const backup = await createKeyBackup({
      privateKey: bob.keys.privateKey,
      publicKey: bob.publicKey,
      recoveryKey,
    });
    expect((await api.put('/api/v1/user/keyBackup', { backup }, bob.accessToken)).status).toBe(200);
    expect((await keyStatus(bob.accessToken)).backup.unlocks).toEqual(['recovery-key']);
  });

  it('replaces the sealed account state alone, served without spending a download, and refuses one the account did not seal', async () => {
    const alice = await createSigningUser(api, 'kbst');
    const recoveryKey = generateRecoveryKey();
    const stateKeys = {
      encryptionKey: alice.publicKey,
      signingKey: alice.signingKey,
      signingPrivateKey: alice.signing.privateKey,
    };
    expectJsonError(
      await api.get('/api/v1/user/keyBackup/state', alice.accessToken),
      404,
      'NOT_FOUND',
      /No key backup/,
    );
    const backup = await createKeyBackup({
      privateKey: alice.keys.privateKey,
      publicKey: alice.publicKey,
      recoveryKey,
    });
    expect((await api.put('/api/v1/user/keyBackup', { backup }, alice.accessToken)).status).toBe(200);
    expect((await api.get('/api/v1/user/keyBackup/state', alice.accessToken)).body.data.state).toBeNull();

    const state = await sealAccountState('{"trusted":true}', stateKeys);
    expect((await api.put('/api/v1/user/keyBackup/state', { state }, alice.accessToken)).status).toBe(200);
    // Read more often than the download budget allows: the state holds no key.
    for (let i = 0; i <= downloadsPerHour; i++) {
      const res = await api.get('/api/v1/user/keyBackup/state', alice.accessToken);
      expect(res.body.data.state).toEqual(state);
    }
    const opened = await api.get('/api/v1/user/keyBackup', alice.accessToken);
    expect(opened.body.data.backup).toEqual({ ...backup, state });
    expect(
      await openAccountState(opened.body.data.backup.state, {
        signingKey: alice.signingKey,
        privateKeys: [alice.keys.privateKey],
      }),
    ).toBe('{"trusted":true}');

    // Sealed for another account's keys, malformed, oversized, or by someone without a backup.
    const mallory = await createSigningUser(api, 'kbst');
    const foreign = await sealAccountState('{}', {
      encryptionKey: mallory.publicKey,
      signingKey: mallory.signingKey,
      signingPrivateKey: mallory.signing.privateKey,
    });
    const put = (body: unknown, token = alice.accessToken) =>
      api.put('/api/v1/user/keyBackup/state', body, token);
    expectJsonError(await put({ state: foreign }), 400, 'VALIDATION_FAILED', /published keys/);
    expectJsonError(
      await put({ state: { ...state, signature: 'AAAA' } }),
      400,
      'VALIDATION_FAILED',
      /signature/,
    );
    expectJsonError(
      await put({ state: { ...state, extra: 1 } }),
      400,
      'VALIDATION_FAILED',
      /Unrecognized key/,
    );
    expectJsonError(await put({}), 400, 'VALIDATION_FAILED', /state is required/);
    expectJsonError(
      await put({ state: { ...state, ciphertext: 'A'.repeat(600 * 1024) } }),
      413,
      'PAYLOAD_TOO_LARGE',
      /too large/,
    );
    expectJsonError(await put({ state: foreign }, mallory.accessToken), 404, 'NOT_FOUND', /No key backup/);
    expect((await api.get('/api/v1/user/keyBackup/state', alice.accessToken)).body.data.state).toEqual(state);
  });

  it('throttles downloads per account, and leaves other accounts alone', async () => {
    const alice = await createBackedUpUser(api, 'kbdl');
    const bob = await createBackedUpUser(api, 'kbdl');
    for (let i = 0; i < downloadsPerHour; i++)
      expect((await api.get('/api/v1/user/keyBackup', alice.accessToken)).status).toBe(200);
    const limited = await api.get('/api/v1/user/keyBackup', alice.accessToken);
    expectJsonError(limited, 429, 'RATE_LIMITED', /Too many key backup downloads. Try again in \d+ minute/);
    expect(JSON.stringify(limited.body)).not.toContain(alice.backup.privateKey.ciphertext);
    // The status (no blob) still answers, and another account still downloads.
    expect((await keyStatus(alice.accessToken)).backup).not.toBeNull();
    expect((await api.get('/api/v1/user/keyBackup', bob.accessToken)).status).toBe(200);
  });

  it('limits writes per account', async () => {
    const alice = await createBackedUpUser(api, 'kbwr');
    const results = [];
    for (let i = 0; i <= writesPerHour; i++)
      results.push(
        (await api.put('/api/v1/user/keyBackup', { backup: alice.backup }, alice.accessToken)).status,
      );
    expect(results.slice(0, writesPerHour).every((status) => status === 200)).toBe(true);
    expect(results[writesPerHour]).toBe(429);
  });

  const redis = options.env?.REDIS_URL;
  describe.runIf(redis)(
    `with two replicas${redis ? '' : ' (skipped: no REDIS_URL, where replicas share the budget)'}`,
    () => {
      it('shares the download budget between replicas (counted in Redis)', async () => {
        // A second user service and gateway on the same NATS, Redis and token keys.
        const { publicJwk } = JSON.parse(
          await readFile(path.join(veil.dataDir, 'keys', 'access-token.jwk.json'), 'utf8'),
        );
        const second = await startTestVeil({
          ...options,
          services: ['user', 'gateway'],
          env: { ...options.env, JWT_PUBLIC_KEY: JSON.stringify(publicJwk) },
        });
        try {
          const other = createApi(second.url);
          const alice = await createBackedUpUser(api, 'kbrep');
          for (let i = 0; i < downloadsPerHour; i++) {
            const through = i % 2 ? other : api;
            expect((await through.get('/api/v1/user/keyBackup', alice.accessToken)).status).toBe(200);
          }
          // Either replica's gateway, and whichever user-service replica answers, sees the spent budget.
          expect((await other.get('/api/v1/user/keyBackup', alice.accessToken)).status).toBe(429);
          expect((await api.get('/api/v1/user/keyBackup', alice.accessToken)).status).toBe(429);
        } finally {
          // Not destroy(): the streams and Redis keys under this prefix are the first one's too.
          await second.stop();
          await rm(second.dataDir, { recursive: true, force: true });
        }
      });
    },
  );
};
