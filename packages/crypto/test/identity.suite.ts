import type { KeyLogEntry, SignedMessage } from '../src/index.ts';
import { assert, rejects, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** The identity signing key, the key bundle's backup, the key-change log and safety numbers. */
export const identityCases = (c: CryptoModule): CryptoCase[] => {
  const identityOf = async (userId: string) => {
    const [encryption, signing] = await Promise.all([c.generateUserKeyPair(), c.generateSigningKeyPair()]);
    return {
      userId,
      encryption,
      signing,
      encryptionKey: await c.exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await c.exportPublicKeySpkiBase64(signing.publicKey),
    };
  };
  const logOf = async (...steps: { encryptionKey: string; signingKey: string | null; reason: string }[]) => {
    const entries: Awaited<ReturnType<typeof c.nextKeyLogEntry>>[] = [];
    for (const [index, step] of steps.entries())
      entries.push(
        await c.nextKeyLogEntry(entries.at(-1) ?? null, {
          ...step,
          reason: step.reason as 'registered',
          at: new Date(Date.UTC(2026, 0, index + 1)).toISOString(),
        }),
      );
    return entries;
  };

  const now = Date.UTC(2026, 5, 1);
  const day = (n: number) => new Date(Date.UTC(2026, 0, n)).toISOString();
  const keysOf = (who: { encryptionKey: string; signingKey: string | null }) => ({
    encryptionKey: who.encryptionKey,
    signingKey: who.signingKey,
  });
  /** A signed entry after `previous` publishing `keys`, signed by `signer`'s signing key. */
  const sign = (
    previous: { seq: number; hash: string } | null,
    keys: { encryptionKey: string; signingKey: string },
    reason: string,
    signer: { signing: CryptoKeyPair },
    at: string,
  ) =>
    c.signKeyLogEntry(
      previous,
      { encryptionKey: keys.encryptionKey, signingKey: keys.signingKey, reason: reason as 'registered', at },
      signer.signing.privateKey,
    );

  return [
    {
      name: 'makes ECDSA P-256 signing keys, refuses other keys as signing keys, and keeps a non-extractable copy',
      async run() {
        const me = await identityOf('me');
        const imported = await c.importSigningPublicKeySpkiBase64(me.signingKey);
        assert((imported.algorithm as EcKeyAlgorithm).namedCurve === 'P-256', 'P-256');
        await rejects(
          c.importSigningPublicKeySpkiBase64(me.encryptionKey),
          (e) => e.code === 'ERR_INVALID_PUBLIC_KEY',
          'an RSA key is no signing key',
        );
        const stored = await c.nonExtractableSigningKey(me.signing.privateKey);
        assert(!stored.extractable && stored.usages.join() === 'sign', 'non-extractable, sign only');
        await rejects(crypto.subtle.exportKey('jwk', stored), () => true, 'cannot be exported');
        const jwk = await crypto.subtle.exportKey('jwk', me.signing.privateKey);
        assert(await c.signingJwkMatchesPublicKey(jwk, me.signingKey), 'matches its public key');
        const other = await identityOf('other');
        assert(!(await c.signingJwkMatchesPublicKey(jwk, other.signingKey)), "not another's");
      },
    },
    {
      name: 'seals and unseals a signing key as a signing key',
      async run() {
        const me = await identityOf('me');
        const sealed = await c.sealPrivateKey(me.signing.privateKey);
        const unsealed = await c.unsealPrivateKey(sealed, 'signing');
        assert(
          unsealed.algorithm.name === 'ECDSA' && unsealed.usages.join() === 'sign',
          'an ECDSA signing key',
        );
        const jwk = await crypto.subtle.exportKey('jwk', unsealed);
        assert(await c.signingJwkMatchesPublicKey(jwk, me.signingKey), 'the same key');
      },
    },
    {
      name: 'backs up the whole key bundle (version 2) and still opens version 1 backups',
      async run() {
        const me = await identityOf('me');
        const recoveryKey = c.generateRecoveryKey();
        const backup = await c.createKeyBackup({
          privateKey: me.encryption.privateKey,
          publicKey: me.encryptionKey,
          signingKey: { privateKey: me.signing.privateKey, publicKey: me.signingKey },
          recoveryKey,
        });
        assert(
          backup.version === 2 && backup.signingKey?.publicKey === me.signingKey,
          'version 2 with the signing key',
        );
        const opened = await c.openKeyBackupBundle(backup, { recoveryKey });
        assert(opened.signingKey?.publicKey === me.signingKey, 'the signing key comes back');
        const signingJwk = await crypto.subtle.exportKey('jwk', opened.signingKey.privateKey);
        assert(
          signingJwk.d === (await crypto.subtle.exportKey('jwk', me.signing.privateKey)).d,
          'the same signing key',
        );
        const envelope = await c.encryptMessage('bundle', { me: me.encryption.publicKey });
        assert(
          (await c.decryptMessage(envelope, 'me', opened.encryptionKey)) === 'bundle',
          'the encryption key',
        );

        // The signing key is bound to the bundle: another signing public key makes it unreadable.
        const other = await identityOf('other');
        await rejects(
          c.openKeyBackupBundle(
            { ...backup, signingKey: { ...backup.signingKey!, publicKey: other.signingKey } },
            { recoveryKey },
          ),
          (e) => e.code === 'ERR_BACKUP_DAMAGED',
          'a swapped signing public key',
        );

        // A bundle without a signing key (an account that has none yet) is version 2 too.
        const encryptionOnly = await c.createKeyBackup({
          privateKey: me.encryption.privateKey,
          publicKey: me.encryptionKey,
          recoveryKey,
        });
        assert(
          (await c.openKeyBackupBundle(encryptionOnly, { recoveryKey })).signingKey === null,
          'no signing key',
        );

        // A version 1 backup, byte for byte as version 1 made them, still opens.
        const legacy = await legacyVersion1Backup(c, me.encryption.privateKey, me.encryptionKey, recoveryKey);
        const fromLegacy = await c.openKeyBackupBundle(legacy, { recoveryKey });
        assert(fromLegacy.signingKey === null, 'version 1 has no signing key');
        assert(
          (await c.decryptMessage(envelope, 'me', fromLegacy.encryptionKey)) === 'bundle',
          'version 1 opens',
        );
        await rejects(
          c.openKeyBackupBundle({ ...legacy, signingKey: backup.signingKey }, { recoveryKey }),
          (e) => e.code === 'ERR_BACKUP_FORMAT',
          'version 1 with a signing key',
        );
      },
    },
    {
      name: 'checks a legacy key log as before: chain, fingerprints, the pinned entry, the current key',
      async run() {
        const first = await identityOf('me');
        const second = await identityOf('me');
        const log = await logOf(
          { encryptionKey: first.encryptionKey, signingKey: null, reason: 'registered' },
          { encryptionKey: first.encryptionKey, signingKey: first.signingKey, reason: 'signing-key-added' },
          { encryptionKey: second.encryptionKey, signingKey: second.signingKey, reason: 'reset' },
        );
        assert(log[0]!.prevHash === c.keyLogGenesisHash && log[1]!.prevHash === log[0]!.hash, 'chained');
        assert(
          log[0]!.encryptionKeyFingerprint === (await c.keyFingerprint(first.encryptionKey)),
          'fingerprint',
        );
        assert(/^[0-9a-f]{64}$/.test(log[2]!.hash), 'SHA-256 hex');
        const current = { encryptionKey: second.encryptionKey, signingKey: second.signingKey };
        const problem = async (entries: typeof log, pinnedHash: string | null, keys = current) => {
          const check = await c.checkKeyLog(entries, { pinnedHash, current: keys, now });
          return check.ok ? 'ok' : check.problem;
        };
        // Whole, but nothing in it is the account's word: a failure of its own kind.
        assert((await problem(log, null)) === 'unsigned', 'an unsigned log');
        assert((await problem(log, log[0]!.hash)) === 'unsigned', 'an unsigned log extending what was seen');
        assert((await problem([], null)) === 'empty', 'an empty log');
        // A server that swaps the current key without an entry.
        assert(
          (await problem(log, log[2]!.hash, {
            encryptionKey: first.encryptionKey,
            signingKey: first.signingKey,
          })) === 'current-key-mismatch',
          'swapped current key',
        );
        // A server that rewrites the log consistently (new hashes) is caught by the pinned hash.
        const rewritten = await logOf({
          encryptionKey: second.encryptionKey,
          signingKey: second.signingKey,
          reason: 'registered',
        });
        assert((await problem(rewritten, log[2]!.hash)) === 'rewritten', 'rewritten log');
        assert((await problem([], log[0]!.hash)) === 'rewritten', 'a log emptied');
        // Edits that break the chain.
        const edited = log.map((entry) => ({ ...entry }));
        edited[1]!.at = '2020-01-01T00:00:00.000Z';
        assert((await problem(edited, null)) === 'broken-chain', 'an edited entry');
        assert((await problem([log[0]!, log[2]!], null)) === 'broken-chain', 'a removed entry');
        const swappedKey = log.map((entry) => ({ ...entry }));
        swappedKey[2]!.encryptionKey = first.encryptionKey;
        assert(
          (await problem(swappedKey, null, { ...current, encryptionKey: first.encryptionKey })) ===
            'fingerprint-mismatch',
          'a key that is not the fingerprinted one',
        );
      },
    },
    {
      name: 'signs key log entries and accepts every allowed chain: registered, attested, reset; a legacy prefix before a signed head',
      async run() {
        const first = await identityOf('me');
        const second = await identityOf('me');
        const registered = await sign(null, first, 'registered', first, day(1));
        assert(registered.seq === 1 && registered.prevHash === c.keyLogGenesisHash, 'the first entry');
        assert(/^[0-9a-f]{64}$/.test(registered.hash), 'SHA-256 hex');
        assert(c.base64ToBytes(registered.signature).length === 64, 'a 64-byte P-256 signature');
        const attested = await sign(registered, first, 'attested', first, day(2));
        const reset = await sign(attested, second, 'reset', second, day(3));
        const log = [registered, attested, reset];
        const check = await c.checkKeyLog(log, { pinnedHash: null, current: keysOf(second), now });
        assert(check.ok, `a signed log checks: ${check.ok ? '' : check.detail}`);
        assert(check.head.hash === reset.hash, 'its head is the last entry');
        assert(check.resets.length === 1 && check.resets[0]!.hash === reset.hash, 'the reset is reported');
        assert(check.signedSince === registered.at, 'signed since registration');
        const pinned = await c.checkKeyLog(log, {
          pinnedHash: registered.hash,
          current: keysOf(second),
          now,
        });
        assert(pinned.ok, 'extends what was seen');

        // A legacy account: unsigned entries the server made, then its browser's signed ones.
        const legacy = await logOf({
          encryptionKey: first.encryptionKey,
          signingKey: null,
          reason: 'registered',
        });
        const added = await sign(legacy[0]!, first, 'signing-key-added', first, day(2));
        const upgraded = await c.checkKeyLog([...legacy, added], {
          pinnedHash: legacy[0]!.hash,
          current: keysOf(first),
          now,
        });
        assert(
          upgraded.ok && upgraded.signedSince === added.at,
          'a legacy prefix, then the first signing key',
        );
        const withKey = await logOf(
          { encryptionKey: first.encryptionKey, signingKey: null, reason: 'registered' },
          { encryptionKey: first.encryptionKey, signingKey: first.signingKey, reason: 'signing-key-added' },
        );
        const attestedLegacy = await sign(withKey[1]!, first, 'attested', first, day(3));
        const attestedCheck = await c.checkKeyLog([...withKey, attestedLegacy], {
          pinnedHash: null,
          current: keysOf(first),
          now,
        });
        assert(
          attestedCheck.ok && attestedCheck.head.reason === 'attested',
          'a legacy log attested by its key',
        );
        // An account from before the log: its first signing key is its first entry.
        const preLog = await sign(null, first, 'signing-key-added', first, day(1));
        assert(
          (await c.checkKeyLog([preLog], { pinnedHash: null, current: keysOf(first), now })).ok,
          'pre-log account',
        );
      },
    },
    {
      name: 'refuses every key log entry its reason does not allow, a bad or wrong signature, a backdated or future entry',
      async run() {
        const first = await identityOf('me');
        const second = await identityOf('me');
        const server = await identityOf('server');
        const registered = await sign(null, first, 'registered', first, day(1));
        const problemOf = async (entry: KeyLogEntry, previous: KeyLogEntry = registered) => {
          const failure = await c.checkKeyLogEntry(previous, entry, now);
          const whole = await c.checkKeyLog([previous, entry], {
            pinnedHash: null,
            current: keysOf(entry),
            now,
          });
          assert(whole.ok === (failure === null), 'the log check agrees with the entry check');
          return failure?.problem ?? 'ok';
        };
        const expect = async (
          entry: KeyLogEntry,
          problem: string,
          what: string,
          previous: KeyLogEntry = registered,
        ) => {
          const got = await problemOf(entry, previous);
          assert(got === problem, `${what}: ${got}`);
        };
        // Key swaps under a reason that is not a reset, signed by the current key or the new one.
        await expect(
          await sign(registered, second, 'attested', first, day(2)),
          'forbidden-change',
          'attested with new keys',
        );
        await expect(
          await sign(registered, second, 'attested', second, day(2)),
          'forbidden-change',
          'attested by a new key',
        );
        await expect(
          await sign(
            registered,
            { encryptionKey: second.encryptionKey, signingKey: first.signingKey },
            'attested',
            first,
            day(2),
          ),
          'forbidden-change',
          'attested with a new encryption key',
        );
        await expect(
          await sign(registered, second, 'registered', second, day(2)),
          'forbidden-change',
          'a second registration',
        );
        await expect(
          await sign(registered, second, 'signing-key-added', second, day(2)),
          'forbidden-change',
          'a signing key added over one',
        );
        const legacy = (
          await logOf({ encryptionKey: first.encryptionKey, signingKey: null, reason: 'registered' })
        )[0]!;
        await expect(
          await sign(legacy, second, 'signing-key-added', second, day(2)),
          'forbidden-change',
          'a first signing key with another encryption key',
          legacy,
        );
        await expect(
          await sign(
            registered,
            { encryptionKey: second.encryptionKey, signingKey: first.signingKey },
            'reset',
            first,
            day(2),
          ),
          'forbidden-change',
          'a reset that keeps the signing key',
        );
        const resetFirst = await sign(null, first, 'reset', first, day(1));
        assert(
          (await c.checkKeyLogEntry(null, resetFirst, now))?.problem === 'forbidden-change',
          'a reset as the first entry',
        );
        // Signatures: by someone else, by the old key for a reset, by the new key for an attestation, tampered.
        await expect(
          await sign(registered, second, 'reset', server, day(2)),
          'bad-signature',
          'a reset signed by the server',
        );
        await expect(
          await sign(registered, second, 'reset', first, day(2)),
          'bad-signature',
          'a reset signed by the old key',
        );
        const attestedByServer = await sign(registered, first, 'attested', server, day(2));
        await expect(attestedByServer, 'bad-signature', 'an attestation signed by another key');
        const stolen = await sign(registered, second, 'reset', second, day(2));
        await expect(
          { ...stolen, signature: attestedByServer.signature },
          'bad-signature',
          'a signature moved',
        );
        const ownRegistration = await sign(null, first, 'registered', server, day(1));
        assert(
          (await c.checkKeyLogEntry(null, ownRegistration, now))?.problem === 'bad-signature',
          'a registration signed by another key',
        );
        // A signed entry whose signature is dropped is checked as a legacy one: its hash no longer holds.
        const { signature: _dropped, ...unsignedCopy } = stolen;
        await expect(unsignedCopy, 'broken-chain', 'a signed entry stripped of its signature');
        // Time: backwards, far ahead, just ahead.
        await expect(
          await sign(registered, second, 'reset', second, '2025-12-31T00:00:00.000Z'),
          'backdated',
          'a backdated entry',
        );
        const farAhead = new Date(now + c.keyLogFutureWindowMs + 60_000).toISOString();
        await expect(
          await sign(registered, second, 'reset', second, farAhead),
          'future-dated',
          'a future entry',
        );
        const justAhead = new Date(now + 60_000).toISOString();
        await expect(
          await sign(registered, second, 'reset', second, justAhead),
          'ok',
          'a minute ahead is clock skew',
        );
        // Place in the chain.
        const reset = await sign(registered, second, 'reset', second, day(2));
        await expect({ ...reset, seq: 3 }, 'broken-chain', 'a skipped sequence number');
        await expect(
          await sign({ seq: 1, hash: 'f'.repeat(64) }, second, 'reset', second, day(2)),
          'broken-chain',
          'a wrong prevHash',
        );
        // An unsigned entry after a signed one, and an unsigned head.
        const unsignedAfter = await c.nextKeyLogEntry(registered, {
          ...keysOf(second),
          reason: 'reset',
          at: day(2),
        });
        await expect(unsignedAfter, 'broken-chain', 'an unsigned entry after a signed one');
      },
    },
    {
      name: 'computes a 60-digit safety number that both sides share and that any key change changes',
      async run() {
        const alice = await identityOf('alice');
        const bob = await identityOf('bob');
        const identity = (who: typeof alice) => ({
          userId: who.userId,
          encryptionKey: who.encryptionKey,
          signingKey: who.signingKey,
        });
        const seenByAlice = await c.safetyNumber(identity(alice), identity(bob));
        const seenByBob = await c.safetyNumber(identity(bob), identity(alice));
        assert(/^\d{60}$/.test(seenByAlice), '60 digits');
        assert(seenByAlice === seenByBob, 'the same number on both sides');
        assert(c.safetyNumberGroups(seenByAlice).length === 12, '12 groups of 5');
        const newBob = await identityOf('bob');
        const afterReset = await c.safetyNumber(identity(alice), identity(newBob));
        assert(afterReset !== seenByAlice, 'a new key changes it');
        const halves = [seenByAlice.slice(0, 30), seenByAlice.slice(30)];
        assert(
          halves.includes(afterReset.slice(0, 30)) || halves.includes(afterReset.slice(30)),
          "alice's half stays",
        );
        const signingOnly = await c.safetyNumber(identity(alice), {
          ...identity(bob),
          signingKey: newBob.signingKey,
        });
        assert(signingOnly !== seenByAlice, 'a new signing key alone changes it');
        const otherId = await c.safetyNumber(identity(alice), { ...identity(bob), userId: 'mallory' });
        assert(otherId !== seenByAlice, 'the user id is part of it');
      },
    },
    {
      name: 'signs a message over every field that makes it this message, and refuses any change',
      async run() {
        const [alice, bob, carol] = await Promise.all([
          identityOf('alice'),
          identityOf('bob'),
          identityOf('carol'),
        ]);
        const signingKey = await c.nonExtractableSigningKey(alice.signing.privateKey);
        const envelope = await c.encryptMessage('signed', {
          alice: alice.encryption.publicKey,
          bob: bob.encryption.publicKey,
        });
        const message: SignedMessage = {
          ciphertext: envelope.content,
          iv: envelope.iv,
          chat: c.directChatRef('bob', 'alice'),
          senderId: 'alice',
          clientMessageId: 'client-1',
          replyTo: null,
          createdAt: '2026-01-02T03:04:05.000Z',
          encryptedKeys: envelope.encryptedKeys,
        };
        const signature = await c.signMessage(signingKey, message);
        assert(c.base64ToBytes(signature).length === 64, 'a 64-byte P-256 signature');
        assert(await c.verifyMessageSignature(alice.signingKey, message, signature), 'verifies');
        assert(
          c.directChatRef('alice', 'bob') === message.chat,
          'a direct chat is named the same from both sides',
        );
        const reordered = Object.fromEntries(Object.entries(message.encryptedKeys).reverse());
        assert(
          await c.verifyMessageSignature(
            alice.signingKey,
            { ...message, encryptedKeys: reordered },
            signature,
          ),
          'the order of the wrapped keys does not matter',
        );

        const changes: [string, Partial<SignedMessage>][] = [
          [
            'ciphertext',
            { ciphertext: (await c.encryptMessage('other', { bob: bob.encryption.publicKey })).content },
          ],
          ['iv', { iv: c.bytesToBase64(crypto.getRandomValues(new Uint8Array(12))) }],
          ['chat', { chat: 'group-1' }],
          ['sender', { senderId: 'carol' }],
          ['client message id', { clientMessageId: 'client-2' }],
          ['reply', { replyTo: 'message-9' }],
          ['time', { createdAt: '2026-01-02T03:04:06.000Z' }],
          [
            'a member added',
            { encryptedKeys: { ...message.encryptedKeys, carol: message.encryptedKeys.bob! } },
          ],
          ['a member dropped', { encryptedKeys: { alice: message.encryptedKeys.alice! } }],
          [
            'a wrapped key swapped',
            { encryptedKeys: { ...message.encryptedKeys, bob: message.encryptedKeys.alice! } },
          ],
        ];
        for (const [what, change] of changes)
          assert(
            !(await c.verifyMessageSignature(alice.signingKey, { ...message, ...change }, signature)),
            what,
          );
        assert(
          !(await c.verifyMessageSignature(carol.signingKey, message, signature)),
          "another sender's key",
        );
        for (const bad of ['', 'AAAA', 'not base64!', signature.slice(4)])
          assert(
            !(await c.verifyMessageSignature(alice.signingKey, message, bad)),
            `a malformed signature ${bad}`,
          );
        assert(!(await c.verifyMessageSignature('AAAA', message, signature)), 'a malformed key');
        await rejects(
          c.signMessage(signingKey, { ...message, clientMessageId: 'a\nb' }),
          () => true,
          'a field with a line break',
        );
      },
    },
  ];
};

/** A version 1 backup as earlier versions of `createKeyBackup` wrote it (no passphrase). */
const legacyVersion1Backup = async (
  c: CryptoModule,
  privateKey: CryptoKey,
  publicKey: string,
  recoveryKey: string,
): Promise<Parameters<CryptoModule['openKeyBackup']>[0]> => {
  const utf8 = (text: string) => new TextEncoder().encode(text);
  const aad = (role: string) => utf8(`veil key backup 1|${role}|${publicKey}`);
  const gcm = (iv: Uint8Array<ArrayBuffer>, role: string) => ({
    name: 'AES-GCM',
    iv,
    additionalData: aad(role),
  });
  const aes = { name: 'AES-GCM', length: 256 } as const;
  const dataKey = await crypto.subtle.generateKey(aes, true, ['wrapKey', 'unwrapKey']);
  const keyIv = crypto.getRandomValues(new Uint8Array(12));
  const ciphertext = await crypto.subtle.wrapKey('pkcs8', privateKey, dataKey, gcm(keyIv, 'private-key'));
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const base = await crypto.subtle.importKey('raw', c.recoveryKeyBytesOf(recoveryKey)!, 'HKDF', false, [
    'deriveKey',
  ]);
  const kek = await crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt, info: utf8('veil key backup 1|recovery key') },
    base,
    aes,
    false,
    ['wrapKey'],
  );
  const unlockIv = crypto.getRandomValues(new Uint8Array(12));
  const wrapped = await crypto.subtle.wrapKey('raw', dataKey, kek, gcm(unlockIv, 'recovery-key'));
  const b64 = (bytes: ArrayBuffer | Uint8Array) => c.bytesToBase64(new Uint8Array(bytes));
  return {
    version: 1,
    publicKey,
    privateKey: { iv: b64(keyIv), ciphertext: b64(ciphertext) },
    unlocks: [
      {
        kind: 'recovery-key',
        kdf: { name: 'HKDF-SHA256', salt: b64(salt) },
        iv: b64(unlockIv),
        wrappedKey: b64(wrapped),
      },
    ],
  };
};
