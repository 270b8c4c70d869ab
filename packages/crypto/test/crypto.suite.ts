import type * as VeilCrypto from '../src/index.ts';

/**
 * The crypto cases, written once and run in every runtime (jose's approach): the module under
 * test is a parameter, each case throws on failure. Node runs them through vitest; Chromium runs
 * the same bundle in a page.
 */
export type CryptoModule = typeof VeilCrypto;
export interface CryptoCase {
  name: string;
  run(): Promise<void>;
}

const assert: (condition: unknown, message: string) => asserts condition = (condition, message) => {
  if (!condition) throw new Error(message);
};

const rejects = async (
  promise: Promise<unknown>,
  check: (error: { code?: string; message?: string }) => boolean,
  what: string,
) => {
  try {
    await promise;
  } catch (error) {
    assert(
      check(error as { code?: string }),
      `${what}: unexpected error ${String((error as Error).message)}`,
    );
    return;
  }
  throw new Error(`${what}: expected a rejection`);
};

export const cryptoCases = (c: CryptoModule): CryptoCase[] => {
  const users = async (n: number) => {
    const pairs = await Promise.all(Array.from({ length: n }, () => c.generateUserKeyPair()));
    return pairs.map((keys, i) => ({ id: `user${i}`, keys }));
  };
  const publicKeys = (list: { id: string; keys: CryptoKeyPair }[]) =>
    Object.fromEntries(list.map((u) => [u.id, u.keys.publicKey]));

  return [
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
      name: "builds the spec's individual and group payloads, with the exact validation text",
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
  ];
};
