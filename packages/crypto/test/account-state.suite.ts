import { assert, rejects, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** What travels with an account's keys (the sealed account state), and the link QR code's commitment. */
export const accountStateCases = (c: CryptoModule): CryptoCase[] => {
  const accountOf = async () => {
    const [encryption, signing] = await Promise.all([c.generateUserKeyPair(), c.generateSigningKeyPair()]);
    return {
      encryption,
      signing,
      encryptionKey: await c.exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await c.exportPublicKeySpkiBase64(signing.publicKey),
    };
  };
  const unreadable = (e: { code?: string }) => e.code === 'ERR_ACCOUNT_STATE';

  return [
    {
      name: 'account state: opens with the account keys, and a server-made, re-signed, tampered or foreign state fails',
      async run() {
        const alice = await accountOf();
        const text = JSON.stringify({ pins: { bob: 'a'.repeat(64) } });
        const sealed = await c.sealAccountState(text, {
          encryptionKey: alice.encryptionKey,
          signingKey: alice.signingKey,
          signingPrivateKey: alice.signing.privateKey,
        });
        const expected = { signingKey: alice.signingKey, privateKeys: [alice.encryption.privateKey] };
        assert((await c.openAccountState(sealed, expected)) === text, 'the account opens its own state');
        assert(!sealed.ciphertext.includes('pins'), 'the text is encrypted');

        // The server knows the public keys and can seal anything for them, but cannot sign.
        const server = await accountOf();
        const forged = await c.sealAccountState(JSON.stringify({ pins: {} }), {
          encryptionKey: alice.encryptionKey,
          signingKey: alice.signingKey,
          signingPrivateKey: server.signing.privateKey,
        });
        await rejects(
          c.openAccountState(forged, expected),
          unreadable,
          'sealed for Alice, signed by another key',
        );
        const ownSigner = await c.sealAccountState('{}', {
          encryptionKey: alice.encryptionKey,
          signingKey: server.signingKey,
          signingPrivateKey: server.signing.privateKey,
        });
        await rejects(
          c.openAccountState(ownSigner, expected),
          unreadable,
          'signed by a key that is not the account’s',
        );

        const flipped = c.base64ToBytes(sealed.ciphertext);
        flipped[0]! ^= 1;
        await rejects(
          c.openAccountState({ ...sealed, ciphertext: c.bytesToBase64(flipped) }, expected),
          unreadable,
          'a flipped ciphertext bit',
        );
        await rejects(
          c.openAccountState(sealed, {
            signingKey: alice.signingKey,
            privateKeys: [server.encryption.privateKey],
          }),
          unreadable,
          'another account’s private key',
        );
        // An account holding an older key as well opens it with whichever key it was sealed for.
        const opened = await c.openAccountState(sealed, {
          signingKey: alice.signingKey,
          privateKeys: [server.encryption.privateKey, alice.encryption.privateKey],
        });
        assert(opened === text, 'the right key among several');
      },
    },
    {
      name: 'link QR code: carries the commitment, and a key swapped by the relay fails against it',
      async run() {
        const fresh = await c.generateLinkKeyPair();
        const relay = await c.generateLinkKeyPair();
        const code = await c.linkCodeOf('0123456789abcdef0123456789abcdef');
        const qr = c.linkQrTextOf(code, await c.linkCommitment(fresh.publicKey));
        const scanned = c.readLinkQrText(qr);
        assert(
          scanned?.code === code && scanned.commitment !== null,
          'the scan gives the code and commitment',
        );
        assert(
          (await c.linkIdOfCode(scanned.code)) === '0123456789abcdef0123456789abcdef',
          'the code finds the link',
        );
        assert(
          await c.linkCommitmentMatches(scanned.commitment, fresh.publicKey),
          'the new browser’s key matches',
        );
        assert(
          !(await c.linkCommitmentMatches(scanned.commitment, relay.publicKey)),
          'a swapped key does not',
        );
        // A relay that also swaps the commitment it serves still differs from the scanned one.
        assert(
          (await c.linkCommitment(relay.publicKey)) !== scanned.commitment,
          'a served commitment differs',
        );
        // Typed codes carry no commitment; a QR text with a damaged one is no code at all.
        assert(c.readLinkQrText(code)?.commitment === null, 'a typed code');
        assert(c.readLinkQrText(qr.slice(0, -2)) === null, 'a damaged commitment');
      },
    },
  ];
};
