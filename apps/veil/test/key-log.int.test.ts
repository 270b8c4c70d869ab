import { describe, expect, it } from 'vitest';
import {
  checkKeyLog,
  createKeyBackup,
  exportPublicKeySpkiBase64,
  generateRecoveryKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  keyLogGenesisHash,
  type KeyLogEntry,
} from '@veil/crypto';
import { expectJsonError } from './support/json-errors.ts';
import { useTestVeil } from './support/test-veil.ts';
import { createUser, type TestUser } from './support/users.ts';

/**
 * The key-change log over real HTTP on the embedded app: who may read it, that it only grows and
 * stays chained, and that bad keys, oversized bodies and repeated resets store nothing.
 */
const running = useTestVeil();

const newKeys = async () => {
  const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
  return {
    encryption,
    signing,
    publicKey: await exportPublicKeySpkiBase64(encryption.publicKey),
    signingKey: await exportPublicKeySpkiBase64(signing.publicKey),
  };
};

/** A user registered as the browser registers now: both keys in the form. */
const createIdentityUser = async (base: string) => {
  const keys = await newKeys();
  const user = await createUser(running.api, base, undefined, {
    keys: keys.encryption,
    fields: { signingKey: keys.signingKey },
  });
  return { ...user, signingKey: keys.signingKey };
};

const keyLogOf = async (user: { _id: string }, reader: TestUser) => {
  const res = await running.api.get(`/api/v1/users/${user._id}/keyLog`, reader.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as {
    entries: KeyLogEntry[];
    current: { encryptionKey: string; signingKey: string | null };
  };
};

const expectValid = async (log: Awaited<ReturnType<typeof keyLogOf>>, pinnedHash: string | null = null) => {
  const check = await checkKeyLog(log.entries, { pinnedHash, current: log.current });
  expect(check, JSON.stringify(check)).toMatchObject({ ok: true });
};

describe('the key-change log', () => {
  it('starts with the keys given at registration, and any signed-in user may read it', async () => {
    const alice = await createIdentityUser('klreg');
    const bob = await createUser(running.api, 'klreader');
    const log = await keyLogOf(alice, bob);
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      seq: 1,
      reason: 'registered',
      encryptionKey: alice.publicKey,
      signingKey: alice.signingKey,
      prevHash: keyLogGenesisHash,
    });
    expect(log.current).toEqual({ encryptionKey: alice.publicKey, signingKey: alice.signingKey });
    await expectValid(log);
    expect((await running.api.get(`/api/v1/user/publicKey/${alice._id}`)).body.data).toEqual({
      publicKey: alice.publicKey,
      signingKey: alice.signingKey,
    });

    expectJsonError(await running.api.get(`/api/v1/users/${alice._id}/keyLog`), 401);
    expectJsonError(await running.api.get(`/api/v1/users/${alice._id}/keyLog`, 'not-a-token'), 401);
    expectJsonError(
      await running.api.get(`/api/v1/users/nosuchuser/keyLog`, bob.accessToken),
      404,
      'USER_NOT_FOUND',
    );
    expectJsonError(await running.api.get(`/api/v1/users/..%2Fetc/keyLog`, bob.accessToken), 400);
  });

  it('adds a first signing key to an account that had none, once, as a chained entry', async () => {
    const legacy = await createUser(running.api, 'kllegacy');
    const first = await keyLogOf(legacy, legacy);
    expect(first.entries).toMatchObject([{ seq: 1, reason: 'registered', signingKey: null }]);
    const { signingKey } = await newKeys();

    const added = await running.api.post('/api/v1/user/signingKey', { signingKey }, legacy.accessToken);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ publicKey: legacy.publicKey, signingKey });
    // A signing key does not change when the encryption key was published.
    expect(Date.parse(added.body.data.publishedAt)).toBeLessThanOrEqual(Date.parse(first.entries[0]!.at));
    const log = await keyLogOf(legacy, legacy);
    expect(log.entries).toHaveLength(2);
    expect(log.entries[0]).toEqual(first.entries[0]); // append-only: the first entry is unchanged
    expect(log.entries[1]).toMatchObject({
      seq: 2,
      reason: 'signing-key-added',
      prevHash: first.entries[0]!.hash,
    });
    await expectValid(log, first.entries[0]!.hash);

    const again = await running.api.post(
      '/api/v1/user/signingKey',
      { signingKey: (await newKeys()).signingKey },
      legacy.accessToken,
    );
    expectJsonError(again, 409, 'SIGNING_KEY_EXISTS');
    expect((await keyLogOf(legacy, legacy)).entries).toHaveLength(2);
  });

  it('lets only one of two racing first signing keys in', async () => {
    const racer = await createUser(running.api, 'klrace');
    const keys = await Promise.all([newKeys(), newKeys(), newKeys()]);
    const answers = await Promise.all(
      keys.map(({ signingKey }) =>
        running.api.post('/api/v1/user/signingKey', { signingKey }, racer.accessToken),
      ),
    );
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409]);
    const log = await keyLogOf(racer, racer);
    expect(log.entries.map((entry) => entry.reason)).toEqual(['registered', 'signing-key-added']);
    await expectValid(log);
  });

  it('refuses malformed keys and oversized bodies with a clear 4xx, storing nothing', async () => {
    const carol = await createIdentityUser('klbad');
    const rsaKey = (await newKeys()).publicKey;
    const { publicKey, signingKey } = await newKeys();
    const refused: [string, unknown, number][] = [
      ['signingKey', { signingKey: rsaKey }, 400],
      ['signingKey', { signingKey: 'AAAA' }, 400],
      ['signingKey', { signingKey: 'not base64!' }, 400],
      ['signingKey', { signingKey: 'A'.repeat(4000) }, 400],
      ['signingKey', { signingKey, extra: 1 }, 400],
      ['resetKeys', { publicKey: signingKey, signingKey }, 400],
      ['resetKeys', { publicKey, signingKey: rsaKey }, 400],
      ['resetKeys', { publicKey, signingKey, backup: { padding: 'x'.repeat(9000) } }, 413],
      ['resetKeys', { publicKey, signingKey, backup: { version: 2 } }, 400],
      ['resetKeys', { publicKey: carol.publicKey, signingKey }, 400],
      ['resetKeys', {}, 400],
    ];
    for (const [route, body, status] of refused)
      expectJsonError(await running.api.post(`/api/v1/user/${route}`, body, carol.accessToken), status);
    const huge = await running.api.call('POST', '/api/v1/user/resetKeys', {
      token: carol.accessToken,
      raw: {
        body: JSON.stringify({ publicKey: 'A'.repeat(2 * 1024 * 1024) }),
        contentType: 'application/json',
      },
    });
    expectJsonError(huge, 413);
    expect((await keyLogOf(carol, carol)).entries).toHaveLength(1);
  });

  it('resets keys with a reset entry and a backup of the new bundle; the old backup no longer counts', async () => {
    const dave = await createIdentityUser('klreset');
    const before = await keyLogOf(dave, dave);
    const fresh = await newKeys();
    const recoveryKey = generateRecoveryKey();
    const backup = await createKeyBackup({
      privateKey: fresh.encryption.privateKey,
      publicKey: fresh.publicKey,
      signingKey: { privateKey: fresh.signing.privateKey, publicKey: fresh.signingKey },
      recoveryKey,
    });

    // A backup of other keys than the new ones is refused, and nothing changes.
    const other = await newKeys();
    const mismatched = await running.api.post(
      '/api/v1/user/resetKeys',
      { publicKey: other.publicKey, signingKey: other.signingKey, backup },
      dave.accessToken,
    );
    expectJsonError(mismatched, 400, 'VALIDATION_FAILED');

    const reset = await running.api.post(
      '/api/v1/user/resetKeys',
      { publicKey: fresh.publicKey, signingKey: fresh.signingKey, backup },
      dave.accessToken,
    );
    expect(reset.status, JSON.stringify(reset.body)).toBe(201);
    const log = await keyLogOf(dave, dave);
    expect(log.entries).toHaveLength(2);
    expect(log.entries[1]).toMatchObject({ seq: 2, reason: 'reset', encryptionKey: fresh.publicKey });
    await expectValid(log, before.entries[0]!.hash);
    expect(reset.body.data).toEqual({
      publicKey: fresh.publicKey,
      signingKey: fresh.signingKey,
      publishedAt: log.entries[1]!.at,
      backup: { storedAt: expect.any(String), unlocks: ['recovery-key'], holdsSigningKey: true },
    });
    expect((await running.api.get(`/api/v1/user/publicKey/${dave._id}`)).body.data.publicKey).toBe(
      fresh.publicKey,
    );
    // What a browser pinned before the reset is still in the log: the log was extended, not rewritten.
    expect(log.entries[0]).toEqual(before.entries[0]);
  });

  it('limits key resets per account, and a refused reset stores nothing', async () => {
    const erin = await createIdentityUser('kllimit');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const { publicKey, signingKey } = await newKeys();
      const res = await running.api.post(
        '/api/v1/user/resetKeys',
        { publicKey, signingKey },
        erin.accessToken,
      );
      statuses.push(res.status);
      if (res.status === 429) expectJsonError(res, 429, 'RATE_LIMITED');
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const log = await keyLogOf(erin, erin);
    expect(log.entries.map((entry) => entry.reason)).toEqual(['registered', 'reset', 'reset', 'reset']);
    await expectValid(log);
    // After a reset without a backup, the backup of replaced keys is not reported as the account's.
    expect((await running.api.get('/api/v1/user/keyStatus', erin.accessToken)).body.data.backup).toBeNull();
  });
});
