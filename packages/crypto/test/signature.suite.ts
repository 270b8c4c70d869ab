import type { SignedMessage, SignedMessageAction } from '../src/index.ts';
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
        const unsigned = await verdict(march, message, null);
        assert(unsigned.status === 'failed' && unsigned.reason === 'unsigned', 'unsigned once a key existed');
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
