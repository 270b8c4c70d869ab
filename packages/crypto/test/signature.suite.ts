import type { KeyMapSummary, SignedMessage, SignedMessageAction } from '../src/index.ts';
import { assert, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/** Sender signatures as a reader checks them: actions, the key log's key at a time, key maps. */
export const signatureCases = (c: CryptoModule): CryptoCase[] => {
  const identityOf = async (userId: string) => {
    const [encryption, signing] = await Promise.all([c.generateUserKeyPair(), c.generateSigningKeyPair()]);
    return {
      userId,
      encryption,
      signing: await c.nonExtractableSigningKey(signing.privateKey),
      encryptionKey: await c.exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await c.exportPublicKeySpkiBase64(signing.publicKey),
    };
  };
  type Identity = Awaited<ReturnType<typeof identityOf>>;
  /** Alice's key log: registered on January 1st without a signing key, `steps` after it. */
  const logOf = async (steps: { signingKey: string | null; encryptionKey: string; at: string }[]) => {
    const entries: Awaited<ReturnType<typeof c.nextKeyLogEntry>>[] = [];
    for (const [index, step] of steps.entries())
      entries.push(
        await c.nextKeyLogEntry(entries.at(-1) ?? null, {
          ...step,
          reason: index === 0 ? 'registered' : step.signingKey && index === 1 ? 'signing-key-added' : 'reset',
        }),
      );
    return entries;
  };
  const groupMessage = async (
    sender: Identity,
    members: Identity[],
    chat = 'group-1',
  ): Promise<SignedMessage> => {
    const envelope = await c.encryptMessage(
      'hello',
      Object.fromEntries(members.map((m) => [m.userId, m.encryption.publicKey])),
    );
    return {
      ciphertext: envelope.content,
      iv: envelope.iv,
      chat,
      senderId: sender.userId,
      clientMessageId: 'client-1',
      replyTo: null,
      createdAt: '2026-03-01T10:00:00.000Z',
      encryptedKeys: envelope.encryptedKeys,
    };
  };

  return [
    {
      name: 'signs edits, deletions and reactions over their kind, target and sealed content',
      async run() {
        const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map(identityOf));
        const envelope = await c.encryptMessage('edited', {
          alice: alice!.encryption.publicKey,
          bob: bob!.encryption.publicKey,
        });
        const edit: SignedMessageAction = {
          kind: 'edit',
          target: 'message-1',
          chat: c.directChatRef('alice', 'bob'),
          senderId: 'alice',
          createdAt: '2026-03-01T10:01:00.000Z',
          sealed: { ciphertext: envelope.content, iv: envelope.iv, encryptedKeys: envelope.encryptedKeys },
        };
        const signature = await c.signMessage(alice!.signing, edit);
        assert(await c.verifyMessageSignature(alice!.signingKey, edit, signature), 'an edit verifies');
        const sealed = edit.sealed!;
        const changes: [string, Partial<SignedMessageAction>][] = [
          ['kind', { kind: 'reaction' }],
          ['target', { target: 'message-2' }],
          ['chat', { chat: 'group-1' }],
          ['sender', { senderId: 'carol' }],
          ['time', { createdAt: '2026-03-01T10:02:00.000Z' }],
          ['ciphertext', { sealed: { ...sealed, ciphertext: envelope.iv + envelope.iv } }],
          ['iv', { sealed: { ...sealed, iv: c.bytesToBase64(crypto.getRandomValues(new Uint8Array(12))) } }],
          [
            'a member dropped',
            { sealed: { ...sealed, encryptedKeys: { alice: sealed.encryptedKeys.alice! } } },
          ],
          [
            'a member added',
            {
              sealed: {
                ...sealed,
                encryptedKeys: { ...sealed.encryptedKeys, carol: sealed.encryptedKeys.bob! },
              },
            },
          ],
          ['nothing sealed', { sealed: null }],
        ];
        for (const [what, change] of changes)
          assert(
            !(await c.verifyMessageSignature(alice!.signingKey, { ...edit, ...change }, signature)),
            what,
          );
        assert(!(await c.verifyMessageSignature(carol!.signingKey, edit, signature)), "another's key");

        const deletion: SignedMessageAction = { ...edit, kind: 'delete', sealed: null };
        const deleted = await c.signMessage(alice!.signing, deletion);
        assert(await c.verifyMessageSignature(alice!.signingKey, deletion, deleted), 'a deletion verifies');
        assert(
          !(await c.verifyMessageSignature(alice!.signingKey, { ...deletion, target: 'message-2' }, deleted)),
          'a deletion of another message',
        );

        // An action's encoding can never be read as a message's, whatever its fields.
        const asMessage: SignedMessage = {
          ciphertext: sealed.ciphertext,
          iv: sealed.iv,
          chat: edit.chat,
          senderId: 'alice',
          clientMessageId: 'message-1',
          replyTo: null,
          createdAt: edit.createdAt,
          encryptedKeys: sealed.encryptedKeys,
        };
        assert(!(await c.verifyMessageSignature(alice!.signingKey, asMessage, signature)), 'not a message');
        const first = new TextDecoder().decode(await c.messageActionSignatureBytes(edit)).split('\n')[0];
        assert(first === 'veil message action signature 1', 'its own first line');
      },
    },
    {
      name: 'checks a message against the key the sender had at that time, and tells legacy history apart',
      async run() {
        const [alice, bob] = await Promise.all(['alice', 'bob'].map(identityOf));
        const next = await identityOf('alice');
        // Registered without a signing key, one added on February 1st, a reset on April 1st.
        const log = await logOf([
          { encryptionKey: alice!.encryptionKey, signingKey: null, at: '2026-01-01T00:00:00.000Z' },
          {
            encryptionKey: alice!.encryptionKey,
            signingKey: alice!.signingKey,
            at: '2026-02-01T00:00:00.000Z',
          },
          { encryptionKey: next.encryptionKey, signingKey: next.signingKey, at: '2026-04-01T00:00:00.000Z' },
        ]);
        assert(c.signingKeyAt(log, '2026-01-15T00:00:00.000Z') === null, 'no key in January');
        assert(
          c.signingKeyAt(log, '2026-02-01T00:00:00.000Z') === alice!.signingKey,
          'the first key from its entry',
        );
        assert(
          c.signingKeyAt(log, '2026-05-01T00:00:00.000Z') === next.signingKey,
          'the new key after the reset',
        );

        const message = await groupMessage(alice!, [alice!, bob!]);
        const signature = await c.signMessage(alice!.signing, message);
        const march = '2026-03-01T10:00:00.000Z';
        // null: an unsigned message.
        const verdict = (at: string, signed = message, sig: string | null = signature) =>
          c.checkMessageSignature(log, at, signed, sig ?? undefined);

        assert((await verdict(march)).status === 'verified', 'signed with the key of its time');
        assert(
          (await verdict('2026-01-15T00:00:00.000Z', message, null)).status === 'legacy',
          'unsigned, before any key',
        );
        // Unsigned after the first key: history until browsers began to sign, a failure from then on.
        assert(
          (await verdict(march, message, null)).status === 'legacy',
          'unsigned after the first key, before browsers signed',
        );
        const unsigned = await verdict('2026-12-01T00:00:00.000Z', message, null);
        assert(
          unsigned.status === 'failed' && unsigned.reason === 'unsigned',
          'unsigned once browsers signed',
        );
        const early = await verdict('2026-01-15T00:00:00.000Z');
        assert(
          early.status === 'failed' && early.reason === 'no-signing-key',
          'signed before any key existed',
        );
        // The old key after the key change: what a thief of the old key could still make.
        const stale = await verdict('2026-05-01T00:00:00.000Z');
        assert(stale.status === 'failed' && stale.reason === 'replaced-key', 'an old key after the reset');
        const afterReset = await c.signMessage(next.signing, message);
        assert(
          (await verdict('2026-05-01T00:00:00.000Z', message, afterReset)).status === 'verified',
          'the new key',
        );

        // Where it appears is rebuilt by the reader: a replay elsewhere, or an altered key map, fails.
        const bad = async (what: string, shown: SignedMessage) => {
          const result = await verdict(march, shown);
          assert(result.status === 'failed' && result.reason === 'bad-signature', what);
        };
        await bad('replayed into another group', { ...message, chat: 'group-2' });
        await bad('replayed into a one-to-one chat', { ...message, chat: c.directChatRef('alice', 'bob') });
        await bad('shown as another sender', { ...message, senderId: 'bob' });
        await bad('a member missing from the key map', {
          ...message,
          encryptedKeys: { alice: message.encryptedKeys.alice! },
        });
        await bad('a member added to the key map', {
          ...message,
          encryptedKeys: { ...message.encryptedKeys, mallory: message.encryptedKeys.bob! },
        });
        const forged = await c.signMessage(bob!.signing, message);
        const byBob = await verdict(march, message, forged);
        assert(byBob.status === 'failed' && byBob.reason === 'bad-signature', "someone else's signature");
      },
    },
    {
      name: 'takes unsigned messages for history only before browsers began to sign',
      async run() {
        const alice = await identityOf('alice');
        const bob = await identityOf('bob');
        const since = Date.parse(c.messagesSignedSince);
        assert(c.messagesSignedSince === '2026-11-24T07:10:00.000Z', 'the time browsers began to sign');
        const log = await logOf([
          { encryptionKey: alice.encryptionKey, signingKey: null, at: '2026-01-01T00:00:00.000Z' },
          {
            encryptionKey: alice.encryptionKey,
            signingKey: alice.signingKey,
            at: '2026-11-01T00:00:00.000Z',
          },
        ]);
        const message = await groupMessage(alice, [alice, bob]);
        const unsignedAt = (at: string) => c.checkMessageSignature(log, at, message, undefined);
        const before = await unsignedAt(new Date(since - 1).toISOString());
        assert(before.status === 'legacy', 'stored a moment before: history');
        for (const at of [c.messagesSignedSince, new Date(since + 60_000).toISOString(), 'not a time']) {
          const after = await unsignedAt(at);
          assert(after.status === 'failed' && after.reason === 'unsigned', `stored at ${at}: a failure`);
        }
        // A sender who never had a signing key sends unsigned history at any time.
        const keyless = await logOf([
          { encryptionKey: alice.encryptionKey, signingKey: null, at: '2026-01-01T00:00:00.000Z' },
        ]);
        const later = await c.checkMessageSignature(keyless, '2026-12-01T00:00:00.000Z', message, undefined);
        assert(later.status === 'legacy', 'no signing key yet');
        // A signed message is checked as ever on both sides of the time.
        const signature = await c.signMessage(alice.signing, message);
        for (const at of [new Date(since - 1).toISOString(), c.messagesSignedSince])
          assert(
            (await c.checkMessageSignature(log, at, message, signature)).status === 'verified',
            `signed, stored at ${at}`,
          );
      },
    },
    {
      name: "checks a signature against a key map's summary exactly as against the full map",
      async run() {
        const [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map(identityOf));
        const message = await groupMessage(alice!, [alice!, bob!]);
        const summary = await c.keyMapSummaryOf(message.encryptedKeys);
        assert(summary.members.join() === 'alice,bob', 'the members, sorted');
        const summarised: SignedMessage<KeyMapSummary> = { ...message, encryptedKeys: summary };
        const bytes = (signed: Parameters<typeof c.messageSignatureBytes>[0]) =>
          c.messageSignatureBytes(signed).then((b) => new TextDecoder().decode(b));
        assert((await bytes(message)) === (await bytes(summarised)), 'one encoding');

        // The encoding of a fixed message, byte for byte: what signatures already made cover.
        const fixed: SignedMessage = {
          ciphertext: 'Y2lwaGVy',
          iv: 'aXY=',
          chat: 'group-1',
          senderId: 'alice',
          clientMessageId: 'client-1',
          replyTo: null,
          createdAt: '2026-03-01T10:00:00.000Z',
          encryptedKeys: { bob: 'key-b', alice: 'key-a' },
        };
        const known = [
          'veil message signature 1',
          'Y2lwaGVy',
          'aXY=',
          'group-1',
          'alice',
          'client-1',
          '-',
          '2026-03-01T10:00:00.000Z',
          'alice,bob',
          '26634840fbdf9ab3703f9399b598bcf1196f5ece19a6890fe6b99aac2dfd2e99',
        ].join('\n');
        assert((await bytes(fixed)) === known, 'the known encoding');
        const fixedSummary = await c.keyMapSummaryOf(fixed.encryptedKeys);
        assert((await bytes({ ...fixed, encryptedKeys: fixedSummary })) === known, 'its summary too');

        // Signed over the full map, verified over the summary, and the other way round.
        const signature = await c.signMessage(alice!.signing, message);
        assert(
          await c.verifyMessageSignature(alice!.signingKey, summarised, signature),
          'a summary verifies',
        );
        const signedOverSummary = await c.signMessage(alice!.signing, summarised);
        assert(
          await c.verifyMessageSignature(alice!.signingKey, message, signedOverSummary),
          'the full map verifies a signature made over its summary',
        );
        const withCarol = await c.keyMapSummaryOf({ ...message.encryptedKeys, carol: 'key-c' });
        const withoutBob = await c.keyMapSummaryOf({ alice: message.encryptedKeys.alice! });
        const changes: [string, KeyMapSummary][] = [
          ['a member added', { members: ['alice', 'bob', 'carol'], digest: summary.digest }],
          ['a member added, with its digest', withCarol],
          ['a member removed', { members: ['alice'], digest: summary.digest }],
          ['a member removed, with its digest', withoutBob],
          ['another digest', { members: summary.members, digest: withCarol.digest }],
          ['members out of order', { members: ['bob', 'alice'], digest: summary.digest }],
          ['two members passed off as one', { members: ['alice,bob'], digest: summary.digest }],
        ];
        for (const [what, changed] of changes)
          assert(
            !(await c.verifyMessageSignature(
              alice!.signingKey,
              { ...message, encryptedKeys: changed },
              signature,
            )),
            what,
          );

        // An action's sealed key map can be summarised the same way.
        const envelope = await c.encryptMessage('edited', {
          alice: alice!.encryption.publicKey,
          carol: carol!.encryption.publicKey,
        });
        const edit: SignedMessageAction = {
          kind: 'edit',
          target: 'message-1',
          chat: 'group-1',
          senderId: 'alice',
          createdAt: '2026-03-01T10:01:00.000Z',
          sealed: { ciphertext: envelope.content, iv: envelope.iv, encryptedKeys: envelope.encryptedKeys },
        };
        const editSignature = await c.signMessage(alice!.signing, edit);
        const editSummary = await c.keyMapSummaryOf(envelope.encryptedKeys);
        assert(
          await c.verifyMessageSignature(
            alice!.signingKey,
            { ...edit, sealed: { ...edit.sealed!, encryptedKeys: editSummary } },
            editSignature,
          ),
          "an edit's summary verifies",
        );
        assert(
          !(await c.verifyMessageSignature(
            alice!.signingKey,
            { ...edit, sealed: { ...edit.sealed!, encryptedKeys: summary } },
            editSignature,
          )),
          "another key map's summary fails",
        );
      },
    },
    {
      name: 'names who a key map seals a message for against the members',
      async run() {
        const keys = { alice: 'a', bob: 'b', mallory: 'm' };
        const result = c.sealedFor(keys, ['alice', 'bob', 'carol']);
        assert(result.sealed.join() === 'alice,bob,mallory', 'sealed for three');
        assert(result.missing.join() === 'carol', 'carol left out');
        assert(result.strangers.join() === 'mallory', 'mallory is no member');
        const exact = c.sealedFor({ bob: 'b', alice: 'a' }, ['alice', 'bob']);
        assert(!exact.missing.length && !exact.strangers.length, 'exactly the members');
      },
    },
  ];
};
