import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import * as veilCrypto from '../src/index.ts';
import { cryptoCases } from './crypto.suite.ts';

describe('@veil/crypto in Node', () => {
  for (const testCase of cryptoCases(veilCrypto)) it(testCase.name, () => testCase.run(), 30_000);
});

describe('safety numbers against an independent implementation of Signal’s algorithm', () => {
  /** Signal's NumericFingerprintGenerator, written again with node:crypto from its description. */
  const signalHalf = (userId: string, identityKey: Buffer): string => {
    let hash = createHash('sha512')
      .update(Buffer.from([0, 0]))
      .update(identityKey)
      .update(userId, 'utf8')
      .digest();
    for (let i = 0; i < 5200; i++) hash = createHash('sha512').update(hash).update(identityKey).digest();
    let digits = '';
    for (let offset = 0; offset < 30; offset += 5)
      digits += String(Number(hash.readUIntBE(offset, 5) % 100000)).padStart(5, '0');
    return digits;
  };
  const prefixed = (spki: string) => {
    const bytes = Buffer.from(spki, 'base64');
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };

  it('gives the same 60 digits, sorted halves, for two fixed identities', async () => {
    const identities = await Promise.all(
      ['alice', 'bob'].map(async (userId) => ({
        userId,
        encryptionKey: await veilCrypto.exportPublicKeySpkiBase64(
          (await veilCrypto.generateUserKeyPair()).publicKey,
        ),
        signingKey: await veilCrypto.exportPublicKeySpkiBase64(
          (await veilCrypto.generateSigningKeyPair()).publicKey,
        ),
      })),
    );
    const expected = identities
      .map((id) =>
        signalHalf(id.userId, Buffer.concat([prefixed(id.encryptionKey), prefixed(id.signingKey)])),
      )
      .sort()
      .join('');
    expect(await veilCrypto.safetyNumber(identities[0]!, identities[1]!)).toBe(expected);
  });
});
