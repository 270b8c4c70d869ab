import { describe, expect, it } from 'vitest';
import { keyLogStreamId, limits } from '@veil/contracts';
import {
  checkKeyLog,
  createKeyBackup,
  exportPublicKeySpkiBase64,
  generateRecoveryKey,
  generateSigningKeyPair,
  generateUserKeyPair,
  keyLogGenesisHash,
  nextKeyLogEntry,
  signKeyLogEntry,
  type KeyLogEntry,
  type KeyLogReason,
} from '@veil/crypto';
import { newEvent } from '@veil/kernel';
import { expectJsonError } from './support/json-errors.ts';
import { useTestVeil } from './support/test-veil.ts';
import { createSigningUser, createUser, registerForm, uniqueName, type TestUser } from './support/users.ts';

/**
 * The key-change log over real HTTP on the embedded app: every entry is made and signed by the
 * account's browser, and the server, playing a client that lies, refuses every entry the rules
 * forbid (unsigned, signed by the wrong key, a key swap that is not a reset, backdated or
 * future-dated, not extending the newest entry) with a 4xx and its code, storing nothing. Also:
 * who may read a log, that it only grows, and that an account registered without signing keys
 * starts with an unsigned legacy entry that browsers call "not signed yet".
 */
const running = useTestVeil();
const minute = 60_000;

const newKeys = async () => {
  const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
  return {
    encryption,
    signing,
    publicKey: await exportPublicKeySpkiBase64(encryption.publicKey),
    signingKey: await exportPublicKeySpkiBase64(signing.publicKey),
  };
};
type Keys = Awaited<ReturnType<typeof newKeys>>;

/** An entry after `previous` publishing `keys`, signed with `signer`'s signing key, dated `at`. */
const entryOf = (
  previous: { seq: number; hash: string } | null,
  keys: { publicKey: string; signingKey: string },
  reason: KeyLogReason,
  signer: { signing: CryptoKeyPair },
  at = new Date().toISOString(),
) =>
  signKeyLogEntry(
    previous,
    { encryptionKey: keys.publicKey, signingKey: keys.signingKey, reason, at },
    signer.signing.privateKey,
  );

const keyLogOf = async (user: { _id: string }, reader: TestUser) => {
  const res = await running.api.get(`/api/v1/users/${user._id}/keyLog`, reader.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as {
    entries: KeyLogEntry[];
    current: { encryptionKey: string; signingKey: string | null };
  };
};

const checked = async (log: Awaited<ReturnType<typeof keyLogOf>>, pinnedHash: string | null = null) =>
  checkKeyLog(log.entries, { pinnedHash, current: log.current, now: Date.now() });

const expectValid = async (log: Awaited<ReturnType<typeof keyLogOf>>, pinnedHash: string | null = null) =>
  expect(await checked(log, pinnedHash), 'a checked log').toMatchObject({ ok: true });

const post = (route: string, body: unknown, user: TestUser) =>
  running.api.post(`/api/v1/user/${route}`, body, user.accessToken);

describe('the key-change log', () => {
  it('starts with the entry the browser signed at registration, and any signed-in user may read it', async () => {
    const alice = await createSigningUser(running.api, 'klreg');
    const bob = await createUser(running.api, 'klreader');
    const log = await keyLogOf(alice, bob);
    expect(log.entries).toHaveLength(1);
    expect(log.entries[0]).toMatchObject({
      seq: 1,
      reason: 'registered',
      encryptionKey: alice.publicKey,
      signingKey: alice.signingKey,
      prevHash: keyLogGenesisHash,
      signature: expect.any(String),
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

  it('refuses a registration whose first entry is missing, unsigned, signed by another key, of other keys or mistimed', async () => {
    const keys = await newKeys();
    const other = await newKeys();
    const username = uniqueName('klregbad');
    const register = (fields: Record<string, string>) =>
      running.api.call('POST', '/api/v1/user/register', {
        form: registerForm({
          username,
          password: 'correct horse battery',
          publicKey: keys.publicKey,
          signingKey: keys.signingKey,
          ...fields,
        }),
      });
    const good = await entryOf(null, keys, 'registered', keys);
    const { signature: _unsigned, ...unsigned } = good;
    const refused: [string, Record<string, string>, number, string][] = [
      ['no entry', {}, 400, 'VALIDATION_FAILED'],
      ['not JSON', { keyLogEntry: '{' }, 400, 'VALIDATION_FAILED'],
      ['unsigned', { keyLogEntry: JSON.stringify(unsigned) }, 400, 'VALIDATION_FAILED'],
      [
        'signed by another key',
        { keyLogEntry: JSON.stringify(await entryOf(null, keys, 'registered', other)) },
        400,
        'KEY_LOG_SIGNATURE_INVALID',
      ],
      [
        'of other keys',
        { keyLogEntry: JSON.stringify(await entryOf(null, other, 'registered', other)) },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'not a registration',
        { keyLogEntry: JSON.stringify(await entryOf(null, keys, 'signing-key-added', keys)) },
        400,
        'KEY_LOG_CHANGE_FORBIDDEN',
      ],
      [
        'dated an hour ago',
        {
          keyLogEntry: JSON.stringify(
            await entryOf(null, keys, 'registered', keys, new Date(Date.now() - 60 * minute).toISOString()),
          ),
        },
        400,
        'KEY_LOG_TIME_INVALID',
      ],
      [
        'dated an hour ahead',
        {
          keyLogEntry: JSON.stringify(
            await entryOf(null, keys, 'registered', keys, new Date(Date.now() + 60 * minute).toISOString()),
          ),
        },
        400,
        'KEY_LOG_TIME_INVALID',
      ],
      [
        'not the first',
        {
          keyLogEntry: JSON.stringify(
            await entryOf({ seq: 1, hash: 'a'.repeat(64) }, keys, 'registered', keys),
          ),
        },
        409,
        'KEY_LOG_NOT_HEAD',
      ],
      [
        'tampered',
        { keyLogEntry: JSON.stringify({ ...good, hash: 'b'.repeat(64) }) },
        400,
        'VALIDATION_FAILED',
      ],
    ];
    for (const [what, fields, status, code] of refused) {
      const res = await register(fields);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
      expectJsonError(res, status, code);
    }
    // Nothing was stored: the name is free, and the good entry registers.
    const res = await register({ keyLogEntry: JSON.stringify(good) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('starts an account registered without a signing key with an unsigned entry, "not signed yet" until its browser signs', async () => {
    const legacy = await createUser(running.api, 'kllegacy');
    const first = await keyLogOf(legacy, legacy);
    expect(first.entries).toMatchObject([{ seq: 1, reason: 'registered', signingKey: null }]);
    expect(first.entries[0]).not.toHaveProperty('signature');
    expect(await checked(first)).toMatchObject({ ok: false, problem: 'unsigned' });

    const keys = await newKeys();
    const mine = { publicKey: legacy.publicKey, signingKey: keys.signingKey };
    // The old body, a bare key, is no entry.
    expectJsonError(
      await post('signingKey', { signingKey: keys.signingKey }, legacy),
      400,
      'VALIDATION_FAILED',
    );
    // A first signing key may not bring another encryption key.
    const swapped = await entryOf(first.entries[0]!, keys, 'signing-key-added', keys);
    expectJsonError(await post('signingKey', { entry: swapped }, legacy), 400, 'KEY_LOG_CHANGE_FORBIDDEN');
    // Signed by another key than the one it adds.
    const forged = await entryOf(first.entries[0]!, mine, 'signing-key-added', await newKeys());
    expectJsonError(await post('signingKey', { entry: forged }, legacy), 400, 'KEY_LOG_SIGNATURE_INVALID');

    const entry = await entryOf(first.entries[0]!, mine, 'signing-key-added', keys);
    const added = await post('signingKey', { entry }, legacy);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ publicKey: legacy.publicKey, signingKey: keys.signingKey });
    // A signing key does not change when the encryption key was published.
    expect(Date.parse(added.body.data.publishedAt)).toBeLessThanOrEqual(Date.parse(first.entries[0]!.at));
    const log = await keyLogOf(legacy, legacy);
    expect(log.entries).toHaveLength(2);
    expect(log.entries[0]).toEqual(first.entries[0]); // append-only: the first entry is unchanged
    expect(log.entries[1]).toEqual(entry); // stored exactly as the browser signed it
    await expectValid(log, first.entries[0]!.hash);

    const next = await newKeys();
    const again = await entryOf(
      log.entries[1]!,
      { ...mine, signingKey: next.signingKey },
      'signing-key-added',
      next,
    );
    expectJsonError(await post('signingKey', { entry: again }, legacy), 409, 'SIGNING_KEY_EXISTS');
    expect((await keyLogOf(legacy, legacy)).entries).toHaveLength(2);
  });

  it('takes an attestation of the current keys over a legacy entry, signed by the current key', async () => {
    // An account from before entries were signed: its log's newest entry (the server's) names a signing key.
    const user = await createUser(running.api, 'klattest');
    const keys = await newKeys();
    const [registered] = (await keyLogOf(user, user)).entries;
    const legacyEntry = await nextKeyLogEntry(registered!, {
      encryptionKey: user.publicKey,
      signingKey: keys.signingKey,
      reason: 'signing-key-added',
      at: new Date().toISOString(),
    });
    const { ports } = running.veil;
    const streamId = keyLogStreamId(user._id);
    const stored = await ports.bus.readLast('user', streamId);
    await ports.bus.append(
      'user',
      newEvent(ports, 'KeysPublished', streamId, { userId: user._id, entry: legacyEntry }),
      { expectedVersion: stored!.position },
    );
    await expect.poll(async () => (await keyLogOf(user, user)).entries.length).toBe(2);
    const before = await keyLogOf(user, user);
    expect(await checked(before)).toMatchObject({ ok: false, problem: 'unsigned' });

    const current = { publicKey: user.publicKey, signingKey: keys.signingKey };
    const next = await newKeys();
    // An attestation that changes a key, or is signed by another key, or comes to another route.
    const changing = await entryOf(
      legacyEntry,
      { ...current, signingKey: next.signingKey },
      'attested',
      keys,
    );
    expectJsonError(await post('attestKeys', { entry: changing }, user), 400, 'KEY_LOG_CHANGE_FORBIDDEN');
    const byOther = await entryOf(legacyEntry, current, 'attested', next);
    expectJsonError(await post('attestKeys', { entry: byOther }, user), 400, 'KEY_LOG_SIGNATURE_INVALID');
    const attested = await entryOf(legacyEntry, current, 'attested', keys);
    expectJsonError(await post('resetKeys', { entry: attested }, user), 400, 'KEY_LOG_CHANGE_FORBIDDEN');

    const res = await post('attestKeys', { entry: attested }, user);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const after = await keyLogOf(user, user);
    expect(after.entries.map((entry) => entry.reason)).toEqual([
      'registered',
      'signing-key-added',
      'attested',
    ]);
    expect(await checked(after, before.entries[1]!.hash)).toMatchObject({
      ok: true,
      signedSince: attested.at,
    });
    // The same attestation again does not extend the newest entry.
    expectJsonError(await post('attestKeys', { entry: attested }, user), 409, 'KEY_LOG_NOT_HEAD');
  });

  it('refuses, as a client the server cannot trust, every entry the rules forbid, storing nothing', async () => {
    const carol = await createSigningUser(running.api, 'klattack');
    const [head] = (await keyLogOf(carol, carol)).entries;
    const fresh = await newKeys();
    const stranger = await newKeys();
    const at = (offset: number) => new Date(Date.now() + offset).toISOString();
    const sameKeys = { publicKey: carol.publicKey, signingKey: carol.signingKey };
    const good = await entryOf(head!, fresh, 'reset', fresh);
    const { signature: _stripped, ...unsigned } = good;
    const refused: [string, string, unknown, number, string][] = [
      ['an unsigned entry', 'resetKeys', { entry: unsigned }, 400, 'VALIDATION_FAILED'],
      [
        'an unsigned entry that names no signing key',
        'resetKeys',
        { entry: { ...unsigned, signingKey: null, signingKeyFingerprint: null } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a reset signed by the old key',
        'resetKeys',
        { entry: await entryOf(head!, fresh, 'reset', carol) },
        400,
        'KEY_LOG_SIGNATURE_INVALID',
      ],
      [
        'a reset signed by a stranger',
        'resetKeys',
        { entry: await entryOf(head!, fresh, 'reset', stranger) },
        400,
        'KEY_LOG_SIGNATURE_INVALID',
      ],
      [
        'an attestation signed by a stranger',
        'attestKeys',
        { entry: await entryOf(head!, sameKeys, 'attested', stranger) },
        400,
        'KEY_LOG_SIGNATURE_INVALID',
      ],
      [
        'a key swap as an attestation (signed by the current key)',
        'attestKeys',
        { entry: await entryOf(head!, fresh, 'attested', carol) },
        400,
        'KEY_LOG_CHANGE_FORBIDDEN',
      ],
      [
        'a key swap as an attestation (signed by the new key)',
        'attestKeys',
        { entry: await entryOf(head!, fresh, 'attested', fresh) },
        400,
        'KEY_LOG_CHANGE_FORBIDDEN',
      ],
      [
        'a new encryption key under the old signing key, as an attestation',
        'attestKeys',
        { entry: await entryOf(head!, { ...sameKeys, publicKey: fresh.publicKey }, 'attested', carol) },
        400,
        'KEY_LOG_CHANGE_FORBIDDEN',
      ],
      [
        'a second signing key',
        'signingKey',
        {
          entry: await entryOf(
            head!,
            { ...sameKeys, signingKey: fresh.signingKey },
            'signing-key-added',
            fresh,
          ),
        },
        409,
        'SIGNING_KEY_EXISTS',
      ],
      [
        'a reset keeping the signing key',
        'resetKeys',
        { entry: await entryOf(head!, { ...sameKeys, publicKey: fresh.publicKey }, 'reset', carol) },
        400,
        'KEY_LOG_CHANGE_FORBIDDEN',
      ],
      [
        'a reset dated before the entry it follows',
        'resetKeys',
        {
          entry: await entryOf(
            head!,
            fresh,
            'reset',
            fresh,
            new Date(Date.parse(head!.at) - 1000).toISOString(),
          ),
        },
        400,
        'KEY_LOG_TIME_INVALID',
      ],
      [
        'a reset dated an hour ago',
        'resetKeys',
        { entry: await entryOf(head!, fresh, 'reset', fresh, at(-60 * minute)) },
        400,
        'KEY_LOG_TIME_INVALID',
      ],
      [
        'a reset dated a day ahead',
        'resetKeys',
        { entry: await entryOf(head!, fresh, 'reset', fresh, at(24 * 60 * minute)) },
        400,
        'KEY_LOG_TIME_INVALID',
      ],
      [
        'a wrong prevHash',
        'resetKeys',
        { entry: await entryOf({ seq: 1, hash: 'c'.repeat(64) }, fresh, 'reset', fresh) },
        409,
        'KEY_LOG_NOT_HEAD',
      ],
      [
        'a skipped seq',
        'resetKeys',
        { entry: await entryOf({ seq: 2, hash: head!.hash }, fresh, 'reset', fresh) },
        409,
        'KEY_LOG_NOT_HEAD',
      ],
      [
        'a second registration',
        'resetKeys',
        { entry: await entryOf(head!, fresh, 'registered', fresh) },
        400,
        'KEY_LOG_CHANGE_FORBIDDEN',
      ],
      [
        'a hash that is not its own',
        'resetKeys',
        { entry: { ...good, hash: 'd'.repeat(64) } },
        400,
        'VALIDATION_FAILED',
      ],
      [
        'a fingerprint of another key',
        'resetKeys',
        { entry: { ...good, encryptionKeyFingerprint: head!.encryptionKeyFingerprint } },
        400,
        'VALIDATION_FAILED',
      ],
    ];
    for (const [what, route, body, status, code] of refused) {
      const res = await post(route, body, carol);
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
      expectJsonError(res, status, code);
    }
    const log = await keyLogOf(carol, carol);
    expect(log.entries).toEqual([head]);
    // None of the refusals spent a reset: the good one goes through.
    const res = await post('resetKeys', { entry: good }, carol);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const after = await keyLogOf(carol, carol);
    expect(after.entries.map((entry) => entry.reason)).toEqual(['registered', 'reset']);
    expect(await checked(after, head!.hash)).toMatchObject({ ok: true, resets: [good] });
  });

  it('lets only one of two racing entries extend the log', async () => {
    const racer = await createUser(running.api, 'klrace');
    const [head] = (await keyLogOf(racer, racer)).entries;
    const keys = await Promise.all([newKeys(), newKeys(), newKeys()]);
    const entries = await Promise.all(
      keys.map((k) =>
        entryOf(head!, { publicKey: racer.publicKey, signingKey: k.signingKey }, 'signing-key-added', k),
      ),
    );
    const answers = await Promise.all(entries.map((entry) => post('signingKey', { entry }, racer)));
    expect(answers.map((res) => res.status).sort()).toEqual([201, 409, 409]);
    const log = await keyLogOf(racer, racer);
    expect(log.entries.map((entry) => entry.reason)).toEqual(['registered', 'signing-key-added']);
    await expectValid(log);
  });

  it('refuses malformed keys and oversized bodies with a clear 4xx, storing nothing', async () => {
    const carol = await createSigningUser(running.api, 'klbad');
    const [head] = (await keyLogOf(carol, carol)).entries;
    const fresh = await newKeys();
    const good = await entryOf(head!, fresh, 'reset', fresh);
    const refused: [string, unknown, number][] = [
      ['signingKey', { entry: { ...good, signingKey: 'AAAA' } }, 400],
      ['signingKey', { entry: { ...good, signingKey: 'not base64!' } }, 400],
      ['signingKey', { entry: { ...good, signingKey: 'A'.repeat(4000) } }, 400],
      ['signingKey', { entry: good, extra: 1 }, 400],
      ['resetKeys', { entry: { ...good, encryptionKey: fresh.signingKey } }, 400],
      ['resetKeys', { entry: good, backup: { padding: 'x'.repeat(limits.keyBackupMaxBytes + 1024) } }, 413],
      ['resetKeys', { entry: good, backup: { version: 2 } }, 400],
      ['resetKeys', { entry: { ...good, seq: 'two' } }, 400],
      ['resetKeys', { entry: { ...good, at: 'yesterday' } }, 400],
      ['resetKeys', { entry: { ...good, signature: 'short' } }, 400],
      ['resetKeys', {}, 400],
      ['attestKeys', {}, 400],
    ];
    for (const [route, body, status] of refused) expectJsonError(await post(route, body, carol), status);
    const huge = await running.api.call('POST', '/api/v1/user/resetKeys', {
      token: carol.accessToken,
      raw: {
        body: JSON.stringify({ entry: { encryptionKey: 'A'.repeat(2 * 1024 * 1024) } }),
        contentType: 'application/json',
      },
    });
    expectJsonError(huge, 413);
    expect((await keyLogOf(carol, carol)).entries).toHaveLength(1);
  });

  it('resets keys with a signed reset entry and a backup of the new bundle; the old backup no longer counts', async () => {
    const dave = await createSigningUser(running.api, 'klreset');
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
    const mismatched = await post(
      'resetKeys',
      { entry: await entryOf(before.entries[0]!, other, 'reset', other), backup },
      dave,
    );
    expectJsonError(mismatched, 400, 'VALIDATION_FAILED');

    const entry = await entryOf(before.entries[0]!, fresh, 'reset', fresh);
    const reset = await post('resetKeys', { entry, backup }, dave);
    expect(reset.status, JSON.stringify(reset.body)).toBe(201);
    const log = await keyLogOf(dave, dave);
    expect(log.entries).toHaveLength(2);
    expect(log.entries[1]).toEqual(entry);
    await expectValid(log, before.entries[0]!.hash);
    expect(reset.body.data).toEqual({
      publicKey: fresh.publicKey,
      signingKey: fresh.signingKey,
      publishedAt: entry.at,
      backup: { storedAt: expect.any(String), unlocks: ['recovery-key'], holdsSigningKey: true },
    });
    expect((await running.api.get(`/api/v1/user/publicKey/${dave._id}`)).body.data.publicKey).toBe(
      fresh.publicKey,
    );
    // What a browser pinned before the reset is still in the log: the log was extended, not rewritten.
    expect(log.entries[0]).toEqual(before.entries[0]);
  });

  it('limits key resets per account, and a refused reset stores nothing', async () => {
    const erin = await createSigningUser(running.api, 'kllimit');
    const statuses: number[] = [];
    let head = (await keyLogOf(erin, erin)).entries[0]!;
    let last: Keys | null = null;
    for (let i = 0; i < 4; i++) {
      const keys = await newKeys();
      const entry = await entryOf(head, keys, 'reset', keys);
      const res = await post('resetKeys', { entry }, erin);
      statuses.push(res.status);
      if (res.status === 429) expectJsonError(res, 429, 'RATE_LIMITED');
      else [head, last] = [entry, keys];
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const log = await keyLogOf(erin, erin);
    expect(log.entries.map((entry) => entry.reason)).toEqual(['registered', 'reset', 'reset', 'reset']);
    expect(log.current.signingKey).toBe(last?.signingKey);
    await expectValid(log);
    // After a reset without a backup, the backup of replaced keys is not reported as the account's.
    expect((await running.api.get('/api/v1/user/keyStatus', erin.accessToken)).body.data.backup).toBeNull();
  });
});
