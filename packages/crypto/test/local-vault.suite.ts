import { assert, rejects, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** The local vault (a browser's own data, e.g. its search index), run in Node and Chromium. */
export const localVaultCases = (c: CryptoModule): CryptoCase[] => [
  {
    name: 'a vault key wrapped for the account opens only with its private key, and seals text both ways',
    async run() {
      const [mine, other] = await Promise.all([c.generateUserKeyPair(), c.generateUserKeyPair()]);
      const spki = await c.exportPublicKeySpkiBase64(mine.publicKey);
      const { key, wrapped } = await c.createVaultKey(spki);
      assert(wrapped.publicKey === spki, 'names the key it is wrapped for');
      assert(!key.extractable, 'the key in use cannot be exported');
      const sealed = await c.sealVault(key, 'the index: zebra cornflakes');
      assert(
        !new TextDecoder().decode(sealed.ciphertext).includes('zebra'),
        'the sealed bytes do not hold the text',
      );
      assert((await c.openVaultKey(wrapped, [other.privateKey])) === null, 'another account cannot open it');
      const opened = await c.openVaultKey(wrapped, [other.privateKey, mine.privateKey]);
      assert(opened !== null, 'any of the account keys that fits opens it');
      assert((await c.openVault(opened, sealed)) === 'the index: zebra cornflakes', 'round trip');
      const again = await c.sealVault(key, 'the index: zebra cornflakes');
      assert(
        again.iv.some((byte, i) => byte !== sealed.iv[i]),
        'a fresh iv per seal',
      );
    },
  },
  {
    name: 'a changed byte or another vault key does not open the vault',
    async run() {
      const { publicKey } = await c.generateUserKeyPair();
      const spki = await c.exportPublicKeySpkiBase64(publicKey);
      const [{ key }, { key: otherKey }] = await Promise.all([
        c.createVaultKey(spki),
        c.createVaultKey(spki),
      ]);
      const sealed = await c.sealVault(key, 'private');
      const flipped = new Uint8Array(sealed.ciphertext);
      flipped[0]! ^= 1;
      const isDecrypt = (e: { code?: string }) => e.code === 'ERR_DECRYPT';
      await rejects(c.openVault(key, { ...sealed, ciphertext: flipped }), isDecrypt, 'flipped bit');
      await rejects(c.openVault(otherKey, sealed), isDecrypt, 'other key');
    },
  },
];
