import * as c from '@veil/crypto';

/**
 * The page side of the group-integrity benchmark (bundled for Chromium by
 * group-integrity-bench.ts): one timed round, returned as plain numbers, doing what the web
 * client does when it opens a signed group, sends a message and reads a page of history.
 */
export interface GroupIntegrityPage {
  timeGroupIntegrityRound(options: { changes: number; messages: number }): Promise<{
    /** Verifying a chain of `changes` signed group changes against the signer's key log. */
    verifyChainMs: number;
    /** Sealing (3 members) and signing one message, without and with length padding (means). */
    sendMs: number;
    paddedSendMs: number;
    /** Reading a 100-message page (decrypt and verify, all at once), without and with padding. */
    historyPageMs: number;
    paddedHistoryPageMs: number;
  }>;
}

const at = (minute: number) => new Date(Date.UTC(2026, 2, 1, 10, 0) + minute * 60_000).toISOString();

/** Alice's key log (one entry) and signing key: she signs every change of the chain. */
const signer = async () => {
  const [encryption, signing] = await Promise.all([c.generateUserKeyPair(), c.generateSigningKeyPair()]);
  const log = [
    await c.nextKeyLogEntry(null, {
      encryptionKey: await c.exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await c.exportPublicKeySpkiBase64(signing.publicKey),
      reason: 'registered',
      at: '2026-01-01T00:00:00.000Z',
    }),
  ];
  return { log, signingKey: await c.nonExtractableSigningKey(signing.privateKey) };
};

/** A chain of `length` changes by Alice: the creation, then renames, timers, additions and removals. */
const chainOf = async (length: number, signingKey: CryptoKey) => {
  const by = { userId: 'alice', signingKey };
  const chain: c.SignedGroupChange[] = [];
  let state: c.GroupChainState | null = null;
  for (let i = 0; chain.length < length; i++) {
    const body: Parameters<typeof c.signGroupChange>[2] =
      i === 0
        ? { kind: 'created', memberIds: ['alice', 'bob'], name: 'Climbing' }
        : [
            { kind: 'renamed' as const, name: `Climbing ${i}` },
            { kind: 'timer-set' as const, timerSeconds: i % 8 === 2 ? 3600 : 0 },
            { kind: 'members-added' as const, memberIds: [`m${i}`] },
            { kind: 'member-removed' as const, memberIds: [`m${i - 1}`] },
          ][(i - 1) % 4]!;
    const change = await c.signGroupChange('group-1', state, body, by, at(i));
    const folded = c.applyGroupChange(state, change);
    if (!folded.ok) throw new Error(`the benchmark's chain broke at ${i}: ${folded.detail}`);
    state = folded.state;
    chain.push(change);
  }
  return chain;
};

const timeGroupIntegrityRound: GroupIntegrityPage['timeGroupIntegrityRound'] = async ({
  changes,
  messages,
}) => {
  const alice = await signer();
  const chain = await chainOf(changes, alice.signingKey);
  const start = performance.now();
  const check = await c.verifyGroupChain(chain, (_id, time) => c.signingKeyAt(alice.log, time));
  const verifyChainMs = performance.now() - start;
  if (!check.ok) throw new Error(`the chain did not verify: ${check.detail}`);

  const members = await Promise.all([
    c.generateUserKeyPair(),
    c.generateUserKeyPair(),
    c.generateUserKeyPair(),
  ]);
  const recipients = {
    alice: members[0]!.publicKey,
    bob: members[1]!.publicKey,
    carol: members[2]!.publicKey,
  };
  const readerKey = await c.nonExtractablePrivateKey(members[1]!.privateKey);
  const seal = async (i: number, padding?: c.Padding) => {
    const envelope = await c.encryptMessage(`message ${i} ${'x'.repeat(80)}`, recipients, padding);
    const signed: c.SignedMessage = {
      ciphertext: envelope.content,
      iv: envelope.iv,
      chat: 'group-1',
      senderId: 'alice',
      clientMessageId: `client-${i}`,
      replyTo: null,
      createdAt: at(changes + i),
      encryptedKeys: envelope.encryptedKeys,
    };
    return { envelope, signed, signature: await c.signMessage(alice.signingKey, signed) };
  };
  const timeSends = async (padding?: c.Padding) => {
    const begin = performance.now();
    for (let i = 0; i < messages; i++) await seal(i, padding);
    return (performance.now() - begin) / messages;
  };
  const sendMs = await timeSends();
  const paddedSendMs = await timeSends('message');

  // As the web client reads a page: every message at once, each decrypted and verified.
  const timePage = async (padding?: c.Padding) => {
    const page = await Promise.all(Array.from({ length: 100 }, (_, i) => seal(i, padding)));
    const begin = performance.now();
    await Promise.all(
      page.map(async ({ envelope, signed, signature }) => {
        const [reading, verdict] = await Promise.all([
          c.readMessage(envelope, 'bob', [readerKey]),
          c.checkMessageSignature(alice.log, signed.createdAt, signed, signature),
        ]);
        if (!reading.ok || verdict.status !== 'verified') throw new Error('a message did not read or verify');
      }),
    );
    return performance.now() - begin;
  };
  const historyPageMs = await timePage();
  const paddedHistoryPageMs = await timePage('message');
  return { verifyChainMs, sendMs, paddedSendMs, historyPageMs, paddedHistoryPageMs };
};

(window as unknown as GroupIntegrityPage).timeGroupIntegrityRound = timeGroupIntegrityRound;
