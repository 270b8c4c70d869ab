import * as c from '@veil/crypto';

/**
 * The page side of the sender-signature benchmark (bundled for Chromium by signature-bench.ts):
 * one timed round, returned as plain numbers, doing what the web client does per message.
 */
export interface SignaturePage {
  timeSignatureRound(messages: number): Promise<{
    /** Signing one message (its canonical encoding and the ECDSA signature), the mean of `messages`. */
    signMs: number;
    /** Checking one against the sender's key log (the key of its time, the encoding, the ECDSA check). */
    verifyMs: number;
    /** Verifying a 100-message history alone, every message at once (as a page of history is read). */
    verifyHistoryMs: number;
    /** Reading a 100-message history: decrypting every message, then decrypting and verifying. */
    decryptHistoryMs: number;
    decryptAndVerifyHistoryMs: number;
  }>;
}

const timeSignatureRound: SignaturePage['timeSignatureRound'] = async (messages) => {
  const [sender, reader, signing] = await Promise.all([
    c.generateUserKeyPair(),
    c.generateUserKeyPair(),
    c.generateSigningKeyPair(),
  ]);
  const signingKey = await c.nonExtractableSigningKey(signing.privateKey);
  const log = [
    await c.nextKeyLogEntry(null, {
      encryptionKey: await c.exportPublicKeySpkiBase64(sender.publicKey),
      signingKey: await c.exportPublicKeySpkiBase64(signing.publicKey),
      reason: 'registered',
      at: '2026-01-01T00:00:00.000Z',
    }),
  ];
  const readerKey = await c.nonExtractablePrivateKey(reader.privateKey);
  const history = await Promise.all(
    Array.from({ length: Math.max(messages, 100) }, async (_, i) => {
      const envelope = await c.encryptMessage(`message ${i} ${'x'.repeat(80)}`, {
        sender: sender.publicKey,
        reader: reader.publicKey,
      });
      const signed: c.SignedMessage = {
        ciphertext: envelope.content,
        iv: envelope.iv,
        chat: c.directChatRef('sender', 'reader'),
        senderId: 'sender',
        clientMessageId: `client-${i}`,
        replyTo: null,
        createdAt: new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString(),
        encryptedKeys: envelope.encryptedKeys,
      };
      return { envelope, signed };
    }),
  );

  let start = performance.now();
  const signatures: string[] = [];
  for (const { signed } of history.slice(0, messages))
    signatures.push(await c.signMessage(signingKey, signed));
  const signMs = (performance.now() - start) / messages;

  start = performance.now();
  for (const [i, { signed }] of history.slice(0, messages).entries())
    await c.checkMessageSignature(log, signed.createdAt, signed, signatures[i]);
  const verifyMs = (performance.now() - start) / messages;

  const hundred = history.slice(0, 100);
  const historySignatures = await Promise.all(hundred.map(({ signed }) => c.signMessage(signingKey, signed)));
  // As the web client reads a page: every message at once.
  start = performance.now();
  await Promise.all(
    hundred.map(({ signed }, i) =>
      c.checkMessageSignature(log, signed.createdAt, signed, historySignatures[i]),
    ),
  );
  const verifyHistoryMs = performance.now() - start;

  start = performance.now();
  await Promise.all(hundred.map(({ envelope }) => c.readMessage(envelope, 'reader', [readerKey])));
  const decryptHistoryMs = performance.now() - start;

  start = performance.now();
  await Promise.all(
    hundred.map(async ({ envelope, signed }, i) => {
      const [reading, verdict] = await Promise.all([
        c.readMessage(envelope, 'reader', [readerKey]),
        c.checkMessageSignature(log, signed.createdAt, signed, historySignatures[i]),
      ]);
      if (!reading.ok || verdict.status !== 'verified') throw new Error('a message did not read or verify');
    }),
  );
  const decryptAndVerifyHistoryMs = performance.now() - start;
  return { signMs, verifyMs, verifyHistoryMs, decryptHistoryMs, decryptAndVerifyHistoryMs };
};

(window as unknown as SignaturePage).timeSignatureRound = timeSignatureRound;
