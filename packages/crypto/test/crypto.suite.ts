import { attachmentCases } from './attachment.suite.ts';
import type { PassphraseUnlock, RecoveryKeyUnlock } from '../src/index.ts';
import { assert, rejects, type CryptoCase, type CryptoModule } from './suite-kit.ts';
import { identityCases } from './identity.suite.ts';
import { signatureCases } from './signature.suite.ts';
import { groupChainCases } from './group-chain.suite.ts';
import { signatureV2Cases } from './signature-v2.suite.ts';
import { localVaultCases } from './local-vault.suite.ts';
import { backupKdfCases } from './backup-kdf.suite.ts';
import { accountStateCases } from './account-state.suite.ts';
import { callSignalCases } from './call-signal.suite.ts';
import { frankingCases } from './franking.suite.ts';

/**
 * The crypto cases, written once and run in every runtime (jose's approach): the module under
 * test is a parameter, each case throws on failure. Node runs them through vitest; Chromium runs
 * the same bundle in a page.
 */
export type { CryptoCase, CryptoModule };

export const cryptoCases = (c: CryptoModule): CryptoCase[] => {
  const users = async (n: number) => {
    const pairs = await Promise.all(Array.from({ length: n }, () => c.generateUserKeyPair()));
    return pairs.map((keys, i) => ({ id: `user${i}`, keys }));
  };
  const publicKeys = (list: { id: string; keys: CryptoKeyPair }[]) =>
    Object.fromEntries(list.map((u) => [u.id, u.keys.publicKey]));
  /** A user whose private key is backed up under a new recovery key (and `passphrase`, if given). */
  const backedUpUser = async (passphrase?: string) => {
    const [user] = await users(1);
    const publicKey = await c.exportPublicKeySpkiBase64(user!.keys.publicKey);
    const recoveryKey = c.generateRecoveryKey();
    const backup = await c.createKeyBackup({
      privateKey: user!.keys.privateKey,
      publicKey,
      recoveryKey,
      passphrase: passphrase ?? null,
    });
    return { a: user, publicKey, recoveryKey, backup };
  };

  return [
    ...identityCases(c),
    ...signatureCases(c),
    ...groupChainCases(c),
    ...signatureV2Cases(c),
    ...backupKdfCases(c),
    ...accountStateCases(c),
    ...callSignalCases(c),
    ...frankingCases(c),
    {
      name: 'generates RSA-OAEP 2048-bit keys with exponent 65537 and SHA-256',
      async run() {
        const { publicKey } = await c.generateUserKeyPair();
        const algorithm = publicKey.algorithm as RsaHashedKeyAlgorithm;
        assert(algorithm.name === 'RSA-OAEP' && algorithm.modulusLength === 2048, 'algorithm');
        assert((algorithm.hash as { name: string }).name === 'SHA-256', 'hash');
        assert([...algorithm.publicExponent].join() === '1,0,1', 'exponent');
      },
    },
    {
      name: 'round-trips for 2 recipients, each reading with their own key',
      async run() {
        const [a, b] = await users(2);
        const envelope = await c.encryptMessage('hello', publicKeys([a!, b!]));
        assert(c.base64ToBytes(envelope.iv).length === 12, 'iv is 12 bytes');
        assert((await c.decryptMessage(envelope, a!.id, a!.keys.privateKey)) === 'hello', 'a reads');
        assert((await c.decryptMessage(envelope, b!.id, b!.keys.privateKey)) === 'hello', 'b reads');
      },
    },
    {
      name: 'round-trips for 50 recipients',
      async run() {
        const [one] = await users(1);
        const recipients: Record<string, CryptoKey> = {};
        for (let i = 0; i < 50; i++) recipients[`m${i}`] = one!.keys.publicKey;
        const envelope = await c.encryptMessage('to the many', recipients);
        assert(Object.keys(envelope.encryptedKeys).length === 50, '50 wrapped keys');
        assert(
          (await c.decryptMessage(envelope, 'm49', one!.keys.privateKey)) === 'to the many',
          'last member reads',
        );
      },
    },
    {
      name: 'keeps unicode and emoji intact, and long texts',
      async run() {
        const [a] = await users(1);
        const text = `héllo 🌍 — ${'ü'.repeat(40_000)} 漢字`;
        const envelope = await c.encryptMessage(text, publicKeys([a!]));
        assert((await c.decryptMessage(envelope, a!.id, a!.keys.privateKey)) === text, 'same text');
      },
    },
    {
      name: 'pads messages to size buckets (256 bytes, then powers of two) and reactions to one size, inside the ciphertext',
      async run() {
        const [a] = await users(1);
        const sealedLength = async (text: string, padding?: 'message' | 'reaction') => {
          const envelope = await c.encryptMessage(text, publicKeys([a!]), padding);
          assert(
            (await c.decryptMessage(envelope, a!.id, a!.keys.privateKey)) === text,
            `reads ${text.length}`,
          );
          return c.base64ToBytes(envelope.content).length;
        };
        // AES-GCM adds a 16-byte tag to the padded plaintext.
        assert((await sealedLength('hi', 'message')) === 256 + 16, 'a short message fills 256 bytes');
        assert((await sealedLength('x'.repeat(200), 'message')) === 256 + 16, 'one bucket for both');
        assert((await sealedLength('x'.repeat(300), 'message')) === 512 + 16, 'then 512');
        assert((await sealedLength('ü'.repeat(300), 'message')) === 1024 + 16, '600 bytes of UTF-8: 1024');
        assert(
          (await sealedLength('x'.repeat(40_000), 'message')) === 48 * 1024,
          'capped where the server stops',
        );
        assert(
          (await sealedLength('👍', 'reaction')) === (await sealedLength('👨‍👩‍👧‍👦', 'reaction')),
          'reactions: one size',
        );
        assert((await sealedLength('hi')) === 2 + 16, 'unpadded as before when not asked');
        // Old (unpadded) plaintexts, the versioned one's own prefix included, read as they are.
        const prefixFree = '\u0000veil:2\n{"text":"old","attachments":[]}';
        assert((await sealedLength(prefixFree)) === new TextEncoder().encode(prefixFree).length + 16, 'old');
        // A padded plaintext whose end marker is gone does not read.
        const broken = c.padPlaintext('lost end', 'message');
        broken[broken.findLastIndex((byte) => byte === 0x80)] = 0;
        assert(c.unpadPlaintext(broken) === null, 'a broken padding is refused');
        assert(
          c.unpadPlaintext(c.padPlaintext('', 'message'))?.length === 0,
          'an empty text pads and unpads',
        );
      },
    },
    {
      name: 'uses a fresh key and iv for every message',
      async run() {
        const [a] = await users(1);
        const one = await c.encryptMessage('same', publicKeys([a!]));
        const two = await c.encryptMessage('same', publicKeys([a!]));
        assert(one.iv !== two.iv && one.content !== two.content, 'different ciphertexts');
        assert(one.encryptedKeys[a!.id] !== two.encryptedKeys[a!.id], 'different wrapped keys');
      },
    },
    {
      name: 'shows [Failed to decrypt] for tampered ciphertext, and ERR_DECRYPT below it',
      async run() {
        const [a] = await users(1);
        const envelope = await c.encryptMessage('do not touch', publicKeys([a!]));
        const bytes = c.base64ToBytes(envelope.content);
        bytes[0]! ^= 1;
        const tampered = { ...envelope, content: c.bytesToBase64(bytes) };
        assert(
          (await c.decryptForDisplay(tampered, a!.id, [a!.keys.privateKey])) === '[Failed to decrypt]',
          'display text',
        );
        await rejects(
          c.decryptMessage(tampered, a!.id, a!.keys.privateKey),
          (e) => e.code === 'ERR_DECRYPT',
          'tampered',
        );
      },
    },
    {
      name: 'refuses a user the message was not encrypted for, and a wrong private key',
      async run() {
        const [a, b] = await users(2);
        const envelope = await c.encryptMessage('for a', publicKeys([a!]));
        await rejects(
          c.decryptMessage(envelope, b!.id, b!.keys.privateKey),
          (e) => e.code === 'ERR_NO_KEY_FOR_USER',
          'no key',
        );
        await rejects(
          c.decryptMessage(envelope, a!.id, b!.keys.privateKey),
          (e) => e.code === 'ERR_DECRYPT',
          'wrong key',
        );
      },
    },
    {
      name: 'refuses an empty recipient list',
      async run() {
        await rejects(c.encryptMessage('x', {}), (e) => e.code === 'ERR_MISSING_INPUT', 'empty');
      },
    },
    {
      name: 'exports and imports keys (SPKI base64, private JWK) that still work',
      async run() {
        const [a] = await users(1);
        const spki = await c.exportPublicKeySpkiBase64(a!.keys.publicKey);
        const jwk = await c.exportPrivateKeyJwk(a!.keys.privateKey);
        const envelope = await c.encryptMessage('via imports', {
          me: await c.importPublicKeySpkiBase64(spki),
        });
        assert(
          (await c.decryptMessage(envelope, 'me', await c.importPrivateKeyJwk(jwk))) === 'via imports',
          'imported keys',
        );
      },
    },
    {
      name: 'keeps private keys non-extractable at rest: imported JWKs and copies decrypt but never export',
      async run() {
        const [a] = await users(1);
        const envelope = await c.encryptMessage('locked', publicKeys([a!]));
        const imported = await c.importPrivateKeyJwk(await c.exportPrivateKeyJwk(a!.keys.privateKey));
        const copy = await c.nonExtractablePrivateKey(a!.keys.privateKey);
        for (const [what, key] of [
          ['imported', imported],
          ['copy', copy],
        ] as const) {
          assert(!key.extractable, `${what} is not extractable`);
          assert((await c.decryptMessage(envelope, a!.id, key)) === 'locked', `${what} decrypts`);
          await rejects(crypto.subtle.exportKey('jwk', key), () => true, `${what} refuses export`);
        }
        await rejects(c.nonExtractablePrivateKey(copy), () => true, 'a locked key cannot be copied');
        assert(a!.keys.privateKey.extractable, 'the generated key stays exportable (for a backup)');
      },
    },
    {
      name: 'tells whether a private JWK belongs to a public key (same n and e)',
      async run() {
        const [a, b] = await users(2);
        const jwk = await c.exportPrivateKeyJwk(a!.keys.privateKey);
        const spkiA = await c.exportPublicKeySpkiBase64(a!.keys.publicKey);
        const spkiB = await c.exportPublicKeySpkiBase64(b!.keys.publicKey);
        assert(await c.privateJwkMatchesPublicKey(jwk, spkiA), 'own public key matches');
        assert(!(await c.privateJwkMatchesPublicKey(jwk, spkiB)), "another user's key does not");
        assert(!(await c.privateJwkMatchesPublicKey(jwk, 'bm90IGEga2V5')), 'garbage SPKI does not');
        assert(!(await c.privateJwkMatchesPublicKey({ ...jwk, kty: 'EC' }, spkiA)), 'not RSA');
        assert(!(await c.privateJwkMatchesPublicKey({ ...jwk, n: undefined }, spkiA)), 'no modulus');
        assert(!(await c.privateJwkMatchesPublicKey({ ...jwk, e: 'Aw' }, spkiA)), 'other exponent');
      },
    },
    {
      name: "decrypts with any of an account's keys, and fails with ERR_DECRYPT when none fits",
      async run() {
        const [older, newer] = await users(2);
        const envelope = await c.encryptMessage('sent to the older key', { me: older!.keys.publicKey });
        const both = [newer!.keys.privateKey, older!.keys.privateKey];
        assert(
          (await c.decryptWithAnyKey(envelope, 'me', both)) === 'sent to the older key',
          'older key reads',
        );
        await rejects(
          c.decryptWithAnyKey(envelope, 'me', [newer!.keys.privateKey]),
          (e) => e.code === 'ERR_DECRYPT',
          'only the newer key',
        );
        await rejects(c.decryptWithAnyKey(envelope, 'me', []), (e) => e.code === 'ERR_DECRYPT', 'no keys');
        assert((await c.decryptForDisplay(envelope, 'me', [])) === '[Failed to decrypt]', 'display, no keys');
        assert((await c.decryptForDisplay(envelope, 'me', both)) === 'sent to the older key', 'display');
      },
    },
    {
      name: 'refuses invalid public keys: garbage, EC and 1024-bit RSA',
      async run() {
        const bad = (spki: string, what: string) =>
          rejects(c.importPublicKeySpkiBase64(spki), (e) => e.code === 'ERR_INVALID_PUBLIC_KEY', what);
        await bad('bm90IGEga2V5', 'garbage');
        const ec = await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, [
          'deriveBits',
        ]);
        await bad(
          c.bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('spki', ec.publicKey))),
          'EC key',
        );
        const weak = await crypto.subtle.generateKey(
          {
            name: 'RSA-OAEP',
            modulusLength: 1024,
            publicExponent: new Uint8Array([1, 0, 1]),
            hash: 'SHA-256',
          },
          true,
          ['encrypt', 'decrypt'],
        );
        await bad(
          c.bytesToBase64(new Uint8Array(await crypto.subtle.exportKey('spki', weak.publicKey))),
          '1024-bit',
        );
      },
    },
    {
      name: "builds the seed contract's individual and group payloads, with the exact validation text",
      async run() {
        const [s, r] = await users(2);
        const parties = {
          recipientId: r!.id,
          recipientKey: r!.keys.publicKey,
          senderId: s!.id,
          senderKey: s!.keys.publicKey,
        };
        const payload = await c.buildIndividualPayload('hi', parties, 'msg1');
        assert(
          Object.keys(payload).sort().join() ===
            'encryptedAESKeyForRecipient,encryptedAESKeyForSender,encryptedMessage,iv,replyTo',
          'shape',
        );
        const forRecipient = {
          content: payload.encryptedMessage,
          iv: payload.iv,
          encryptedKeys: { [r!.id]: payload.encryptedAESKeyForRecipient },
        };
        assert((await c.decryptMessage(forRecipient, r!.id, r!.keys.privateKey)) === 'hi', 'recipient reads');
        const text = 'recipientID, messageText, and currentUserID are required';
        await rejects(c.buildIndividualPayload('', parties), (e) => e.message === text, 'empty text');
        await rejects(
          c.buildIndividualPayload('x', { ...parties, recipientId: '' }),
          (e) => e.message === text,
          'no recipient',
        );
        await rejects(
          c.buildIndividualPayload('x', { ...parties, senderId: '' }),
          (e) => e.message === text,
          'no sender',
        );
        const group = await c.buildGroupPayload('all', publicKeys([s!, r!]));
        assert(Object.keys(group.encryptedKeys).sort().join() === [s!.id, r!.id].sort().join(), 'group keys');
      },
    },
    {
      name: 'the key cache shares one fetch and reports "Failed to fetch recipient public key"',
      async run() {
        const [a] = await users(1);
        const spki = await c.exportPublicKeySpkiBase64(a!.keys.publicKey);
        let fetches = 0;
        const cache = new c.PublicKeyCache(async (id) => {
          fetches += 1;
          if (id === 'missing') throw new Error('404');
          return spki;
        });
        const [k1, k2] = await Promise.all([cache.get('a'), cache.get('a')]);
        assert(k1 === k2 && fetches === 1, 'one fetch for concurrent gets');
        await rejects(
          cache.get('missing'),
          (e) => e.message === 'Failed to fetch recipient public key',
          'failure text',
        );
        await rejects(cache.get('missing'), (e) => e.code === 'ERR_PUBLIC_KEY_FETCH', 'not cached');
        assert((fetches as number) === 3, 'failures are not cached');
      },
    },
    {
      name: "re-wraps a reader's message key from an older key for the newer one, and only with a key that opens it",
      async run() {
        const [older, newer, stranger] = await users(3);
        const envelope = await c.encryptMessage('sealed before the reset', { me: older!.keys.publicKey });
        const sealed = (wrappedKey: string) => ({ wrappedKey, content: envelope.content, iv: envelope.iv });
        const copy = await c.rewrapMessageKey(
          sealed(envelope.encryptedKeys.me!),
          [stranger!.keys.privateKey, older!.keys.privateKey],
          newer!.keys.publicKey,
        );
        assert(copy !== null && copy !== envelope.encryptedKeys.me, 'a new copy');
        const rewrapped = { ...envelope, encryptedKeys: { me: copy! } };
        assert(
          (await c.decryptWithAnyKey(rewrapped, 'me', [newer!.keys.privateKey])) ===
            'sealed before the reset',
          'the newer key alone reads the copy',
        );
        assert(
          (await c.rewrapMessageKey(
            sealed(envelope.encryptedKeys.me!),
            [stranger!.keys.privateKey],
            newer!.keys.publicKey,
          )) === null,
          'no key of the reader opens it',
        );
        assert(
          (await c.rewrapMessageKey(
            sealed('not base64!'),
            [older!.keys.privateKey],
            newer!.keys.publicKey,
          )) === null,
          'garbled',
        );
      },
    },
    {
      name: 'refuses to re-wrap what is not a 32-byte key that opens the signed ciphertext',
      async run() {
        const [older, newer] = await users(2);
        const envelope = await c.encryptMessage('the signed text', { me: older!.keys.publicKey });
        const wrapFor = async (bytes: Uint8Array<ArrayBuffer>) =>
          c.bytesToBase64(
            new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, older!.keys.publicKey, bytes)),
          );
        // A 16-byte secret would import as an AES-128 key: the length alone refuses it.
        const short = await wrapFor(crypto.getRandomValues(new Uint8Array(16)));
        assert(
          (await c.rewrapMessageKey(
            { wrappedKey: short, content: envelope.content, iv: envelope.iv },
            [older!.keys.privateKey],
            newer!.keys.publicKey,
          )) === null,
          'a wrong-length key is refused',
        );
        // 32 bytes, but not this message's key (any secret a server would like re-wrapped for it).
        const other = await wrapFor(crypto.getRandomValues(new Uint8Array(32)));
        assert(
          (await c.rewrapMessageKey(
            { wrappedKey: other, content: envelope.content, iv: envelope.iv },
            [older!.keys.privateKey],
            newer!.keys.publicKey,
          )) === null,
          'a key that does not open the ciphertext is refused',
        );
        // The message's own key beside another message's ciphertext: refused as well.
        const elsewhere = await c.encryptMessage('another text', { me: older!.keys.publicKey });
        assert(
          (await c.rewrapMessageKey(
            { wrappedKey: envelope.encryptedKeys.me!, content: elsewhere.content, iv: elsewhere.iv },
            [older!.keys.privateKey],
            newer!.keys.publicKey,
          )) === null,
          "a key beside another message's ciphertext is refused",
        );
      },
    },
    {
      name: 'reads a message or says why not: not for this user, no key fits, damaged',
      async run() {
        const [a, b] = await users(2);
        const envelope = await c.encryptMessage('why not', publicKeys([a!]));
        const read = await c.readMessage(envelope, a!.id, [b!.keys.privateKey, a!.keys.privateKey]);
        assert(read.ok && read.text === 'why not', 'reads with the second key');
        const failure = async (env: typeof envelope, keys: CryptoKey[], user = a!.id) => {
          const reading = await c.readMessage(env, user, keys);
          return reading.ok ? 'read' : reading.failure;
        };
        assert((await failure(envelope, [a!.keys.privateKey], b!.id)) === 'not-for-user', 'not for b');
        assert((await failure(envelope, [b!.keys.privateKey])) === 'no-key-fits', 'only a wrong key');
        assert((await failure(envelope, [])) === 'no-key-fits', 'no keys at all');
        const garbled = { ...envelope, encryptedKeys: { [a!.id]: 'not base64!' } };
        assert((await failure(garbled, [a!.keys.privateKey])) === 'no-key-fits', 'garbled entry');
        const bytes = c.base64ToBytes(envelope.content);
        bytes[3]! ^= 0x10;
        const damaged = { ...envelope, content: c.bytesToBase64(bytes) };
        assert((await failure(damaged, [a!.keys.privateKey])) === 'damaged', 'damaged text');
      },
    },
    {
      name: 'makes recovery keys of 160 bits in 8 groups of 4, and reads them back however typed',
      async run() {
        const key = c.generateRecoveryKey();
        assert(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){7}$/.test(key), `format: ${key}`);
        assert(c.recoveryKeyGroups(key).join('-') === key, 'groups');
        assert(c.generateRecoveryKey() !== key, 'random');
        const canonical = key.replace(/-/g, '');
        for (const typed of [
          key.toLowerCase(),
          c.recoveryKeyGroups(key).join(' '),
          ` ${canonical} `,
          c.recoveryKeyGroups(key).join(' - '),
        ])
          assert(c.normalizeRecoveryKey(typed) === canonical, `reads ${typed}`);
        assert(c.normalizeRecoveryKey('o1il'.repeat(8)) === '0111'.repeat(8), 'O, I and L are 0, 1 and 1');
        for (const bad of ['', canonical.slice(1), `${canonical}0`, `U${canonical.slice(1)}`])
          assert(c.normalizeRecoveryKey(bad) === null, `refuses ${bad}`);
      },
    },
    {
      name: 'backs up a private key and restores it with the recovery key (any case, spaces) or the passphrase',
      async run() {
        const { a, publicKey, recoveryKey, backup } = await backedUpUser('a long passphrase ✓');
        assert(backup.version === 2 && backup.publicKey === publicKey, 'version and public key');
        assert(backup.unlocks.map((u) => u.kind).join() === 'recovery-key,passphrase', 'two unlocks');
        const { kdf } = backup.unlocks[1] as PassphraseUnlock;
        assert(kdf.name === 'Argon2id', 'a new passphrase is stretched with Argon2id');
        const { memoryKiB, iterations, parallelism } = kdf;
        assert(
          JSON.stringify({ memoryKiB, iterations, parallelism }) === JSON.stringify(c.argon2idParams),
          'parameters recorded',
        );
        assert(memoryKiB >= 19_456 && iterations >= 2 && parallelism === 1, "at least OWASP's settings");
        const text = JSON.stringify(backup);
        assert(!text.includes(recoveryKey) && !text.includes('passphrase ✓'), 'no secret in the blob');

        const envelope = await c.encryptMessage('restored', publicKeys([a!]));
        const original = await c.exportPrivateKeyJwk(a!.keys.privateKey);
        for (const secret of [
          { recoveryKey: recoveryKey.toLowerCase().replace(/-/g, ' ') },
          { passphrase: 'a long passphrase ✓' },
        ]) {
          const restored = await c.openKeyBackup(backup, secret);
          assert((await c.decryptMessage(envelope, a!.id, restored)) === 'restored', 'decrypts');
          assert((await c.exportPrivateKeyJwk(restored)).d === original.d, 'the same private key');
        }
        // The passphrase is read as NFC: the same text in another normal form opens it too.
        const decomposed = 'a long passphrase ✓'.normalize('NFD');
        await c.openKeyBackup(backup, { passphrase: decomposed });
      },
    },
    {
      name: 'refuses a wrong recovery key or passphrase, a malformed recovery key, and a missing passphrase',
      async run() {
        const { a, publicKey, recoveryKey, backup } = await backedUpUser();
        assert(backup.unlocks.length === 1, 'no passphrase unlock');
        const secretError = (e: { code?: string }) => e.code === 'ERR_BACKUP_SECRET';
        await rejects(
          c.openKeyBackup(backup, { recoveryKey: c.generateRecoveryKey() }),
          secretError,
          'wrong key',
        );
        await rejects(
          c.openKeyBackup(backup, { recoveryKey: 'ABCD-EFGH' }),
          (e) => e.code === 'ERR_RECOVERY_KEY_FORMAT',
          'too short',
        );
        await rejects(c.openKeyBackup(backup, { passphrase: 'anything' }), secretError, 'no passphrase');
        const withPassphrase = await c.createKeyBackup({
          privateKey: a!.keys.privateKey,
          publicKey,
          recoveryKey,
          passphrase: 'the right passphrase',
        });
        await rejects(
          c.openKeyBackup(withPassphrase, { passphrase: 'the wrong passphrase' }),
          secretError,
          'wrong passphrase',
        );
      },
    },
    {
      name: 'refuses a tampered backup: key, unlock, public key or Argon2id parameters changed',
      async run() {
        const [{ recoveryKey, backup }, [b]] = await Promise.all([
          backedUpUser('tamper-proof passphrase'),
          users(1),
        ]);
        const flip = (base64: string) => {
          const bytes = c.base64ToBytes(base64);
          bytes[bytes.length - 20]! ^= 1;
          return c.bytesToBase64(bytes);
        };
        const secret = { recoveryKey };
        const tamperedKey = {
          ...backup,
          privateKey: { ...backup.privateKey, ciphertext: flip(backup.privateKey.ciphertext) },
        };
        await rejects(c.openKeyBackup(tamperedKey, secret), (e) => e.code === 'ERR_BACKUP_DAMAGED', 'key');
        const [recovery, passphrase] = backup.unlocks as [RecoveryKeyUnlock, PassphraseUnlock];
        const tamperedUnlock = {
          ...backup,
          unlocks: [{ ...recovery, wrappedKey: flip(recovery.wrappedKey) }],
        };
        await rejects(
          c.openKeyBackup(tamperedUnlock, secret),
          (e) => e.code === 'ERR_BACKUP_SECRET',
          'unlock',
        );
        // The public key is bound to every part: naming another key makes the backup unreadable.
        const otherKey = await c.exportPublicKeySpkiBase64(b!.keys.publicKey);
        await rejects(
          c.openKeyBackup({ ...backup, publicKey: otherKey }, secret),
          (e) => e.code === 'ERR_BACKUP_SECRET',
          'public key swapped',
        );
        const fewer = {
          ...passphrase,
          kdf: { ...passphrase.kdf, iterations: passphrase.kdf.iterations - 1 },
        };
        await rejects(
          c.openKeyBackup(
            { ...backup, unlocks: [recovery, fewer] },
            { passphrase: 'tamper-proof passphrase' },
          ),
          (e) => e.code === 'ERR_BACKUP_SECRET',
          'passes changed',
        );
        await rejects(
          c.openKeyBackup({ ...backup, privateKey: { iv: '', ciphertext: '%%%' } }, secret),
          (e) => e.code === 'ERR_BACKUP_FORMAT',
          'not base64',
        );
      },
    },
    {
      name: 'names an unknown backup version as such, even with the right recovery key',
      async run() {
        const { recoveryKey, backup } = await backedUpUser();
        const future = { ...backup, version: 3 } as unknown as typeof backup;
        await rejects(
          c.openKeyBackup(future, { recoveryKey }),
          (e) => e.code === 'ERR_BACKUP_VERSION' && /version 3/.test(e.message ?? ''),
          'version 3',
        );
      },
    },
    {
      name: 'changes, adds and removes the passphrase by re-wrapping: the same private key, the same recovery key',
      async run() {
        const { a, recoveryKey, backup: original } = await backedUpUser('first passphrase');
        const changed = await c.setBackupPassphrase(
          original,
          { passphrase: 'first passphrase' },
          'second passphrase',
        );
        assert(changed.privateKey.ciphertext === original.privateKey.ciphertext, 'same encrypted key');
        assert(
          JSON.stringify(changed.unlocks[0]) === JSON.stringify(original.unlocks[0]),
          'same recovery unlock',
        );
        await rejects(
          c.openKeyBackup(changed, { passphrase: 'first passphrase' }),
          (e) => e.code === 'ERR_BACKUP_SECRET',
          'old passphrase',
        );
        const jwk = await c.exportPrivateKeyJwk(a!.keys.privateKey);
        for (const secret of [{ passphrase: 'second passphrase' }, { recoveryKey }]) {
          const opened = await c.openKeyBackup(changed, secret);
          assert((await c.exportPrivateKeyJwk(opened)).d === jwk.d, 'same private key');
        }
        const removed = await c.setBackupPassphrase(changed, { recoveryKey }, null);
        assert(removed.unlocks.map((u) => u.kind).join() === 'recovery-key', 'only the recovery key');
        await rejects(
          c.openKeyBackup(removed, { passphrase: 'second passphrase' }),
          (e) => e.code === 'ERR_BACKUP_SECRET',
          'removed passphrase',
        );
        const added = await c.setBackupPassphrase(removed, { recoveryKey }, 'third passphrase');
        assert(
          (await c.exportPrivateKeyJwk(await c.openKeyBackup(added, { passphrase: 'third passphrase' })))
            .d === jwk.d,
          'added',
        );
        await rejects(
          c.setBackupPassphrase(added, { recoveryKey: c.generateRecoveryKey() }, 'sneaky'),
          (e) => e.code === 'ERR_BACKUP_SECRET',
          'a change needs a current secret',
        );
      },
    },
    {
      name: 'seals a private key under a non-extractable sealing key and unseals the same key',
      async run() {
        const [a] = await users(1);
        const sealed = await c.sealPrivateKey(a!.keys.privateKey);
        assert(!sealed.sealingKey.extractable, 'the sealing key stays in the browser');
        await rejects(crypto.subtle.exportKey('raw', sealed.sealingKey), () => true, 'no export');
        const unsealed = await c.unsealPrivateKey(sealed);
        assert(unsealed.extractable, 'unsealed for one export');
        const envelope = await c.encryptMessage('sealed', publicKeys([a!]));
        assert((await c.decryptMessage(envelope, a!.id, unsealed)) === 'sealed', 'decrypts');
        const bytes = new Uint8Array(sealed.sealed.slice(0));
        bytes[10]! ^= 1;
        await rejects(c.unsealPrivateKey({ ...sealed, sealed: bytes.buffer }), () => true, 'tampered');
        const fromJwk = await c.sealPrivateKeyJwk(await c.exportPrivateKeyJwk(a!.keys.privateKey));
        assert(
          (await c.decryptMessage(envelope, a!.id, await c.unsealPrivateKey(fromJwk))) === 'sealed',
          'sealed from a JWK',
        );
        const other = await c.sealPrivateKey(a!.keys.privateKey);
        await rejects(
          c.unsealPrivateKey({ ...sealed, sealingKey: other.sealingKey }),
          () => true,
          'another sealing key',
        );
      },
    },
    {
      name: 'links two browsers: equal confirmations, the bundle opens only under the same agreement',
      async run() {
        const fresh = await c.generateLinkKeyPair();
        const old = await c.generateLinkKeyPair();
        assert(!fresh.privateKey.extractable, 'the one-time private key stays in the browser');
        assert(c.base64ToBytes(fresh.publicKey).length === 65, 'an uncompressed P-256 point');
        const commitment = await c.linkCommitment(fresh.publicKey);
        assert(await c.linkCommitmentMatches(commitment, fresh.publicKey), 'the commitment matches its key');
        assert(!(await c.linkCommitmentMatches(commitment, old.publicKey)), 'and no other key');

        const parties = { newBrowser: fresh.publicKey, oldBrowser: old.publicKey };
        const atOld = await c.agreeLink(old.privateKey, fresh.publicKey, parties);
        const atNew = await c.agreeLink(fresh.privateKey, old.publicKey, parties);
        assert(/^\d{6}$/.test(atOld.confirmation), 'six digits');
        assert(atOld.confirmation === atNew.confirmation, 'both screens show the same digits');
        const bundle = JSON.stringify({ version: 1, keys: [{ publicKey: 'p', privateKey: { kty: 'RSA' } }] });
        const sealed = await c.sealLinkBundle(atOld, bundle);
        assert((await c.openLinkBundle(atNew, sealed)) === bundle, 'the new browser opens the bundle');

        // A relay that swapped in a key of its own: other digits, and the bundle does not open.
        const relay = await c.generateLinkKeyPair();
        const fooled = await c.agreeLink(fresh.privateKey, relay.publicKey, {
          newBrowser: fresh.publicKey,
          oldBrowser: relay.publicKey,
        });
        assert(fooled.confirmation !== atOld.confirmation, 'a swapped key shows other digits');
        await rejects(c.openLinkBundle(fooled, sealed), (e) => e.code === 'ERR_LINK_BUNDLE', 'swapped key');
        const tampered = c.base64ToBytes(sealed.ciphertext);
        tampered[0]! ^= 1;
        await rejects(
          c.openLinkBundle(atNew, { ...sealed, ciphertext: c.bytesToBase64(tampered) }),
          (e) => e.code === 'ERR_LINK_BUNDLE',
          'tampered bundle',
        );
        await rejects(
          c.agreeLink(old.privateKey, c.bytesToBase64(new Uint8Array(65)), parties),
          (e) => e.code === 'ERR_LINK_KEY',
          'a point not on the curve',
        );
        await rejects(
          c.agreeLink(old.privateKey, 'AAAA', parties),
          (e) => e.code === 'ERR_LINK_KEY',
          'short',
        );
      },
    },
    ...attachmentCases(c),
    ...localVaultCases(c),
  ];
};
