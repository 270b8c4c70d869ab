import type { SignatureSequence, SignedMessage, SignedMessageAction } from '../src/index.ts';
import { assert, type CryptoCase, type CryptoModule } from './suite-kit.ts';
import { twoFacedCiphertext } from './two-faced-ciphertext.ts';

/**
 * Signatures version 2: the key commitment, the key-log heads, the counter and the previous
 * message are signed; version 1 still verifies for what was signed before version 2 came.
 */
export const signatureV2Cases = (c: CryptoModule): CryptoCase[] => {
  const identityOf = async (userId: string) => {
    const [encryption, signing] = await Promise.all([c.generateUserKeyPair(), c.generateSigningKeyPair()]);
    return {
      userId,
      encryption,
      signing: await c.nonExtractableSigningKey(signing.privateKey),
      signingKey: await c.exportPublicKeySpkiBase64(signing.publicKey),
    };
  };
  type Identity = Awaited<ReturnType<typeof identityOf>>;
  const head = (n: number) => n.toString(16).padStart(64, '0');
  const after = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
  const v2Time = after(c.signatureV2Since, 60_000);
  const logOf = async (who: Identity) => [
    await c.nextKeyLogEntry(null, {
      encryptionKey: await c.exportPublicKeySpkiBase64(who.encryption.publicKey),
      signingKey: who.signingKey,
      reason: 'registered',
      at: '2026-01-01T00:00:00.000Z',
    }),
  ];
  const messageOf = async (sender: Identity, members: Identity[]): Promise<SignedMessage> => {
    const envelope = await c.encryptMessage(
      'hello',
      Object.fromEntries(members.map((m) => [m.userId, m.encryption.publicKey])),
    );
    return {
      ciphertext: envelope.content,
      iv: envelope.iv,
      chat: 'group-1',
      senderId: sender.userId,
      clientMessageId: 'client-2',
      replyTo: null,
      createdAt: v2Time,
      encryptedKeys: envelope.encryptedKeys,
      v2: {
        keyCommitment: envelope.keyCommitment!,
        keyLogHeads: Object.fromEntries(members.map((m, i) => [m.userId, head(i + 1)])),
        counter: 2,
        prev: 'client-1',
      },
    };
  };

  return [
    {
      name: 'v2: signs the commitment, the key-log heads, the counter and the previous message; each tampered field fails',
      async run() {
        const [alice, bob] = await Promise.all(['alice', 'bob'].map(identityOf));
        const message = await messageOf(alice!, [alice!, bob!]);
        const signature = await c.signMessage(alice!.signing, message);
        assert(
          await c.verifyMessageSignature(alice!.signingKey, message, signature),
          'a v2 message verifies',
        );
        const lines = new TextDecoder().decode(await c.messageSignatureBytes(message)).split('\n');
        assert(lines[0] === 'veil message signature 2', 'its own first line');
        assert(
          lines.includes(`alice:${head(1)}`) && lines.includes(`bob:${head(2)}`),
          'sorted id:hash lines',
        );
        const v2 = message.v2!;
        const changes: [string, Partial<SignatureSequence> | null][] = [
          ['the commitment', { keyCommitment: c.bytesToBase64(new Uint8Array(32)) }],
          ["the sender's head", { keyLogHeads: { ...v2.keyLogHeads, alice: head(9) } }],
          ["a member's head", { keyLogHeads: { ...v2.keyLogHeads, bob: head(9) } }],
          ['a head dropped', { keyLogHeads: { alice: head(1) } }],
          ['a head added', { keyLogHeads: { ...v2.keyLogHeads, carol: head(3) } }],
          ['the counter', { counter: 3 }],
          ['the previous message', { prev: 'client-0' }],
          ['no previous message', { prev: null }],
          ['version 2 stripped', null],
        ];
        for (const [what, change] of changes) {
          const shown: SignedMessage =
            change === null ? { ...message, v2: undefined } : { ...message, v2: { ...v2, ...change } };
          assert(!(await c.verifyMessageSignature(alice!.signingKey, shown, signature)), what);
        }
        for (const [what, change] of [
          ['the text', { ciphertext: message.iv + message.iv }],
          ['the chat', { chat: 'group-2' }],
          ['the sender', { senderId: 'bob' }],
          ['the client message id', { clientMessageId: 'client-3' }],
          ['the reply', { replyTo: 'message-9' }],
          ['the time', { createdAt: after(v2Time, 1) }],
          ['the readers', { encryptedKeys: { alice: message.encryptedKeys.alice! } }],
        ] as const)
          assert(
            !(await c.verifyMessageSignature(alice!.signingKey, { ...message, ...change }, signature)),
            what,
          );
        // Out-of-shape fields are refused, never encoded.
        for (const bad of [
          { counter: 0 },
          { counter: 1.5 },
          { prev: '-' },
          { keyLogHeads: { bob: 'short' } },
        ])
          assert(
            !(await c.verifyMessageSignature(
              alice!.signingKey,
              { ...message, v2: { ...v2, ...bad } },
              signature,
            )),
            `refused: ${JSON.stringify(bad)}`,
          );
        const log = await logOf(alice!);
        const verdict = await c.checkMessageSignature(log, v2Time, message, signature);
        assert(verdict.status === 'verified', 'checked against the key log');
      },
    },
    {
      name: 'v2 actions: an edit names the version it replaces, a reaction removal is signed, kinds never pass for each other',
      async run() {
        const [alice, bob] = await Promise.all(['alice', 'bob'].map(identityOf));
        const envelope = await c.encryptMessage('edited', {
          alice: alice!.encryption.publicKey,
          bob: bob!.encryption.publicKey,
        });
        const edit: SignedMessageAction = {
          kind: 'edit',
          target: 'message-1',
          chat: c.directChatRef('alice', 'bob'),
          senderId: 'alice',
          createdAt: v2Time,
          sealed: { ciphertext: envelope.content, iv: envelope.iv, encryptedKeys: envelope.encryptedKeys },
          v2: {
            keyCommitment: envelope.keyCommitment!,
            keyLogHeads: { alice: head(1), bob: head(2) },
            counter: 5,
            prev: 'client-4',
            replaces: 'client-1',
          },
        };
        const signature = await c.signMessage(alice!.signing, edit);
        assert(await c.verifyMessageSignature(alice!.signingKey, edit, signature), 'a v2 edit verifies');
        const first = new TextDecoder().decode(await c.messageActionSignatureBytes(edit)).split('\n')[0];
        assert(first === 'veil message action signature 2', 'its own first line');
        const later = await c.editVersionOf(signature);
        assert(/^[0-9a-f]{64}$/.test(later), 'a later edit names this one by a SHA-256');
        for (const [what, v2] of [
          ['another replaced version', { ...edit.v2!, replaces: later }],
          ['no replaced version', { ...edit.v2!, replaces: null }],
          ['another commitment', { ...edit.v2!, keyCommitment: c.bytesToBase64(new Uint8Array(32)) }],
          ['another counter', { ...edit.v2!, counter: 4 }],
        ] as const)
          assert(!(await c.verifyMessageSignature(alice!.signingKey, { ...edit, v2 }, signature)), what);

        const removal: SignedMessageAction = {
          kind: 'reaction-removal',
          target: 'message-1',
          chat: edit.chat,
          senderId: 'bob',
          createdAt: v2Time,
          sealed: null,
          v2: {
            keyCommitment: null,
            keyLogHeads: { alice: head(1), bob: head(2) },
            counter: 3,
            prev: null,
            replaces: null,
          },
        };
        const removed = await c.signMessage(bob!.signing, removal);
        assert(await c.verifyMessageSignature(bob!.signingKey, removal, removed), 'a removal verifies');
        for (const kind of ['reaction', 'delete', 'edit'] as const)
          assert(
            !(await c.verifyMessageSignature(bob!.signingKey, { ...removal, kind }, removed)),
            `a removal is no ${kind}`,
          );
      },
    },
    {
      name: 'key commitment: a two-faced ciphertext opens under two keys, and the signed commitment holds for one reader only',
      async run() {
        const [mallory, bob, carol] = await Promise.all(['mallory', 'bob', 'carol'].map(identityOf));
        const keyForBob = crypto.getRandomValues(new Uint8Array(32));
        const keyForCarol = crypto.getRandomValues(new Uint8Array(32));
        const twoFaced = await twoFacedCiphertext(
          keyForBob,
          keyForCarol,
          new TextEncoder().encode('Yes, do it now. '),
        );
        const open = async (raw: Uint8Array<ArrayBuffer>) => {
          const key = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['decrypt']);
          return new Uint8Array(
            await crypto.subtle.decrypt({ name: 'AES-GCM', iv: twoFaced.iv }, key, twoFaced.ciphertext),
          );
        };
        const [forBob, forCarol] = await Promise.all([open(keyForBob), open(keyForCarol)]);
        assert(new TextDecoder().decode(forBob.slice(0, 16)) === 'Yes, do it now. ', 'Bob reads one text');
        assert(
          c.bytesToBase64(forBob) !== c.bytesToBase64(forCarol),
          'Carol reads another: AES-GCM alone does not tell',
        );

        // Mallory wraps one key for Bob, the other for Carol, and signs the commitment to Bob's.
        const wrap = async (raw: Uint8Array<ArrayBuffer>, to: CryptoKey) =>
          c.bytesToBase64(new Uint8Array(await crypto.subtle.encrypt({ name: 'RSA-OAEP' }, to, raw)));
        const message: SignedMessage = {
          ciphertext: c.bytesToBase64(twoFaced.ciphertext),
          iv: c.bytesToBase64(twoFaced.iv),
          chat: 'group-1',
          senderId: 'mallory',
          clientMessageId: 'client-1',
          replyTo: null,
          createdAt: v2Time,
          encryptedKeys: {
            mallory: await wrap(keyForBob, mallory!.encryption.publicKey),
            bob: await wrap(keyForBob, bob!.encryption.publicKey),
            carol: await wrap(keyForCarol, carol!.encryption.publicKey),
          },
          v2: {
            keyCommitment: await c.keyCommitmentOf(keyForBob),
            keyLogHeads: { mallory: head(1), bob: head(2), carol: head(3) },
            counter: 1,
            prev: null,
          },
        };
        const signature = await c.signMessage(mallory!.signing, message);
        assert(
          await c.verifyMessageSignature(mallory!.signingKey, message, signature),
          'the signature holds for all',
        );

        // Each reader commits to the key it unwrapped, as readMessage does.
        const unwrapped = async (reader: Identity) =>
          c.keyCommitmentOf(
            await crypto.subtle.decrypt(
              { name: 'RSA-OAEP' },
              reader.encryption.privateKey,
              c.base64ToBytes(message.encryptedKeys[reader.userId]!),
            ),
          );
        assert((await unwrapped(bob!)) === message.v2!.keyCommitment, "Bob's key is the committed one");
        assert((await unwrapped(carol!)) !== message.v2!.keyCommitment, "Carol's key is caught");
        assert(
          (await c.keyCommitmentOf(keyForBob)) !== (await c.keyCommitmentOf(keyForCarol)),
          'two keys, two commitments',
        );
        const label = await crypto.subtle.sign(
          'HMAC',
          await crypto.subtle.importKey('raw', keyForBob, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']),
          new TextEncoder().encode('veil key commitment 1'),
        );
        assert(
          c.bytesToBase64(new Uint8Array(label)) === (await c.keyCommitmentOf(keyForBob)),
          'HMAC-SHA256 of the label',
        );

        // readMessage gives the commitment of the key it used; a sender's envelope gives its own.
        const envelope = await c.encryptMessage('plain', { bob: bob!.encryption.publicKey });
        const reading = await c.readMessage(envelope, 'bob', [bob!.encryption.privateKey]);
        assert(reading.ok && reading.keyCommitment === envelope.keyCommitment, 'reader and sender agree');
      },
    },
    {
      name: 'v1 signatures still verify for what was signed before version 2, and fail after it',
      async run() {
        const [alice, bob] = await Promise.all(['alice', 'bob'].map(identityOf));
        const log = await logOf(alice!);
        const { v2: _none, ...v1 } = await messageOf(alice!, [alice!, bob!]);
        const before: SignedMessage = { ...v1, createdAt: after(c.signatureV2Since, -60_000) };
        const old = await c.signMessage(alice!.signing, before);
        const first = new TextDecoder().decode(await c.messageSignatureBytes(before)).split('\n')[0];
        assert(first === 'veil message signature 1', 'version 1 encodes as ever');
        assert(
          (await c.checkMessageSignature(log, before.createdAt, before, old)).status === 'verified',
          'v1 before',
        );
        // Stored later (a replay, or a late delivery) it still verifies: its signed time counts.
        assert(
          (await c.checkMessageSignature(log, v2Time, before, old)).status === 'verified',
          'v1, stored later',
        );
        const late: SignedMessage = { ...v1, createdAt: c.signatureV2Since };
        const lateSignature = await c.signMessage(alice!.signing, late);
        assert(
          await c.verifyMessageSignature(alice!.signingKey, late, lateSignature),
          'the bytes still verify',
        );
        const verdict = await c.checkMessageSignature(log, v2Time, late, lateSignature);
        assert(
          verdict.status === 'failed' && verdict.reason === 'outdated-version',
          'v1 after the cutoff fails',
        );
        const action: SignedMessageAction = {
          kind: 'delete',
          target: 'message-1',
          chat: 'group-1',
          senderId: 'alice',
          createdAt: v2Time,
          sealed: null,
        };
        const deletion = await c.checkMessageSignature(
          log,
          v2Time,
          action,
          await c.signMessage(alice!.signing, action),
        );
        assert(
          deletion.status === 'failed' && deletion.reason === 'outdated-version',
          'a v1 action after it too',
        );
      },
    },
  ];
};
