import type { SignedMessage } from '../src/index.ts';
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
      name: 'builds a hash-chained key log and checks it: chain, fingerprints, the pinned entry, the current key',
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

        const fresh = await c.checkKeyLog(log, { pinnedHash: null, current });
        assert(fresh.ok && fresh.head?.hash === log[2]!.hash, 'a valid log, head is the last entry');
        assert((await c.checkKeyLog(log, { pinnedHash: log[0]!.hash, current })).ok, 'extends what was seen');
        assert((await c.checkKeyLog([], { pinnedHash: null, current })).ok, 'an empty log, nothing pinned');

        const problem = async (entries: typeof log, pinnedHash: string | null, keys = current) => {
          const check = await c.checkKeyLog(entries, { pinnedHash, current: keys });
          return check.ok ? 'ok' : check.problem;
        };
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
