import type { SignedMessage, SignedMessageAction } from '../src/index.ts';
import { assert, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/**
 * Message franking: the tag commits to the text under a key only members hold; a report that
 * reveals another text or another key does not match the tag, and the tag is signed with the
 * message (version 3), so neither a reporter nor the server can swap it.
 */
export const frankingCases = (c: CryptoModule): CryptoCase[] => {
  const text = 'You will regret this, I know where you live.';
  const after = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
  /** A sender with a key log whose one entry names their signing key, and a franked edit of theirs. */
  const senderAndEdit = async (editedText: string) => {
    const [encryption, signing] = await Promise.all([c.generateUserKeyPair(), c.generateSigningKeyPair()]);
    const signingKey = await c.exportPublicKeySpkiBase64(signing.publicKey);
    const log = [
      await c.nextKeyLogEntry(null, {
        encryptionKey: await c.exportPublicKeySpkiBase64(encryption.publicKey),
        signingKey,
        reason: 'registered',
        at: '2026-01-01T00:00:00.000Z',
      }),
    ];
    const franking = await c.frankText(editedText);
    const envelope = await c.encryptMessage(
      c.encodeMessageContent({ text: editedText, attachments: [], franking: franking.key }),
      { alice: encryption.publicKey },
    );
    const v2 = {
      keyCommitment: envelope.keyCommitment!,
      keyLogHeads: { alice: log[0]!.hash },
      counter: 2,
      prev: 'client-1',
      replaces: 'client-1',
    };
    const edit: SignedMessageAction = {
      kind: 'edit',
      target: 'message-1',
      chat: 'group-1',
      senderId: 'alice',
      createdAt: after(c.frankingSince, 60_000),
      sealed: { ciphertext: envelope.content, iv: envelope.iv, encryptedKeys: envelope.encryptedKeys },
      v2: { ...v2, franking: franking.tag },
    };
    return { signing, signingKey, log, franking, v2, edit, encryption };
  };
  return [
    {
      name: 'franking: the revealed text and key match the tag; altered text, another key or a malformed one do not',
      async run() {
        const franking = await c.frankText(text);
        assert(c.base64ToBytes(franking.key).length === 32, 'a 32-byte key');
        assert(c.base64ToBytes(franking.tag).length === 32, 'a 32-byte tag');
        assert(await c.frankingHolds(text, franking.key, franking.tag), 'the report matches');
        assert(franking.tag === (await c.frankingTagOf(franking.key, text)), 'the tag is recomputed alike');
        const other = await c.frankText(text);
        assert(other.key !== franking.key && other.tag !== franking.tag, 'a fresh key per message');
        const refused: [string, string, string][] = [
          ['altered text', `${text} (not really)`, franking.key],
          ['a trailing space', `${text} `, franking.key],
          ['another key', text, other.key],
          ['a short key', text, c.bytesToBase64(new Uint8Array(16))],
          ['not base64', text, '%%%'],
        ];
        for (const [what, shown, key] of refused)
          assert(!(await c.frankingHolds(shown, key, franking.tag)), what);
        assert(!(await c.frankingHolds(text, franking.key, other.tag)), "another message's tag");
      },
    },
    {
      name: 'franking: the key travels inside the sealed content, and a content without one reads as before',
      async run() {
        const franking = await c.frankText(text);
        const sealed = c.encodeMessageContent({ text, attachments: [], franking: franking.key });
        assert(sealed.startsWith('\u0000veil:2\n'), 'a franked text is a versioned body');
        const read = c.decodeMessageContent(sealed);
        assert(read.text === text && read.franking === franking.key, 'text and key come back');
        const plain = c.decodeMessageContent(c.encodeMessageContent({ text, attachments: [] }));
        assert(plain.text === text && plain.franking === undefined, 'an older message has no key');
      },
    },
    {
      name: 'v3: the franking tag is signed; a changed, stripped or added tag fails, and version 2 still verifies',
      async run() {
        const [encryption, signing] = await Promise.all([
          c.generateUserKeyPair(),
          c.generateSigningKeyPair(),
        ]);
        const signingKey = await c.exportPublicKeySpkiBase64(signing.publicKey);
        const franking = await c.frankText(text);
        const envelope = await c.encryptMessage(
          c.encodeMessageContent({ text, attachments: [], franking: franking.key }),
          { alice: encryption.publicKey },
        );
        const v2 = {
          keyCommitment: envelope.keyCommitment!,
          keyLogHeads: { alice: '1'.padStart(64, '0') },
          counter: 1,
          prev: null,
        };
        const message: SignedMessage = {
          ciphertext: envelope.content,
          iv: envelope.iv,
          chat: 'group-1',
          senderId: 'alice',
          clientMessageId: 'client-1',
          replyTo: null,
          createdAt: new Date().toISOString(),
          encryptedKeys: envelope.encryptedKeys,
          v2: { ...v2, franking: franking.tag },
        };
        const signature = await c.signMessage(signing.privateKey, message);
        const lines = new TextDecoder().decode(await c.messageSignatureBytes(message)).split('\n');
        assert(lines[0] === 'veil message signature 3', 'its own first line');
        assert(lines.at(-1) === franking.tag, 'the tag on the last line');
        assert(await c.verifyMessageSignature(signingKey, message, signature), 'a v3 message verifies');
        const other = await c.frankText(text);
        assert(
          !(await c.verifyMessageSignature(
            signingKey,
            { ...message, v2: { ...v2, franking: other.tag } },
            signature,
          )),
          'another tag fails',
        );
        assert(
          !(await c.verifyMessageSignature(signingKey, { ...message, v2 }, signature)),
          'a stripped tag fails',
        );
        const v2Signature = await c.signMessage(signing.privateKey, { ...message, v2 });
        assert(
          await c.verifyMessageSignature(signingKey, { ...message, v2 }, v2Signature),
          'version 2 verifies',
        );
        assert(
          !(await c.verifyMessageSignature(signingKey, message, v2Signature)),
          'a tag added to a version 2 signature fails',
        );
      },
    },
    {
      name: 'v3 edits: the franking tag of the new text is signed; a changed, stripped or added tag fails, and no other action carries one',
      async run() {
        const { signing, signingKey, log, franking, v2, edit } =
          await senderAndEdit('I meant: see you soon.');
        const signature = await c.signMessage(signing.privateKey, edit);
        const lines = new TextDecoder().decode(await c.messageActionSignatureBytes(edit)).split('\n');
        assert(lines[0] === 'veil message action signature 3', 'its own first line');
        assert(lines[1] === 'edit' && lines.at(-1) === franking.tag, 'the tag on the last line');
        assert(
          (await c.checkMessageSignature(log, edit.createdAt, edit, signature)).status === 'verified',
          'a v3 edit verifies',
        );
        const other = await c.frankText('I meant: see you soon.');
        const refused: [string, SignedMessageAction][] = [
          ['another tag', { ...edit, v2: { ...v2, franking: other.tag } }],
          ['a stripped tag', { ...edit, v2 }],
          ['another kind', { ...edit, kind: 'reaction', v2: { ...v2, franking: franking.tag } }],
        ];
        for (const [what, shown] of refused)
          assert(!(await c.verifyMessageSignature(signingKey, shown, signature)), what);
        const v2Signature = await c.signMessage(signing.privateKey, { ...edit, v2 });
        assert(
          !(await c.verifyMessageSignature(signingKey, edit, v2Signature)),
          'a tag added to a version 2 edit fails',
        );
        // A deletion or a reaction has no text to report: a tag on one is refused, never encoded.
        for (const kind of ['delete', 'reaction', 'reaction-removal'] as const) {
          let encoded = true;
          try {
            await c.messageActionSignatureBytes({ ...edit, kind });
          } catch {
            encoded = false;
          }
          assert(!encoded, `a tag on a ${kind}`);
        }
      },
    },
    {
      name: 'unfranked: a message or an edit without a franking tag, signed or stored from frankingSince on, fails; signed and stored before, and other actions, still verify',
      async run() {
        const { signing, log, v2, edit, encryption } = await senderAndEdit('an edit with no tag');
        assert(Date.parse(c.frankingSince) > Date.parse(c.signatureV2Since), 'after version 2 came');
        const storedAfter = after(c.frankingSince, 3_600_000);
        const storedBefore = after(c.frankingSince, -1);
        /** The verdict on `signed` as a reader sees it, stored by the server at `storedAt`. */
        const check = async (signed: SignedMessage | SignedMessageAction, storedAt = storedAfter) =>
          c.checkMessageSignature(log, storedAt, signed, await c.signMessage(signing.privateKey, signed));
        const envelope = await c.encryptMessage('no tag', { alice: encryption.publicKey });
        const message: SignedMessage = {
          ciphertext: envelope.content,
          iv: envelope.iv,
          chat: 'group-1',
          senderId: 'alice',
          clientMessageId: 'client-9',
          replyTo: null,
          createdAt: c.frankingSince,
          encryptedKeys: envelope.encryptedKeys,
          v2: { keyCommitment: envelope.keyCommitment!, keyLogHeads: v2.keyLogHeads, counter: 9, prev: null },
        };
        const untaggedEdit: SignedMessageAction = { ...edit, v2 };
        const signedBefore = after(c.frankingSince, -60_000);
        const refused: [string, SignedMessage | SignedMessageAction, string][] = [
          ['a message signed at the cut-off', message, storedAfter],
          ['an edit signed after it', untaggedEdit, storedAfter],
          // A modified client back-dates its signed time; the server stored it after the cut-off.
          ['a message signed before, stored after', { ...message, createdAt: signedBefore }, storedAfter],
          ['an edit signed before, stored after', { ...untaggedEdit, createdAt: signedBefore }, storedAfter],
          ['a message stored at the cut-off', { ...message, createdAt: signedBefore }, c.frankingSince],
          ['a message signed after, stored before', message, storedBefore],
          ['a stored time that is not one', { ...message, createdAt: signedBefore }, 'not a time'],
        ];
        for (const [what, signed, storedAt] of refused) {
          const verdict = await check(signed, storedAt);
          assert(verdict.status === 'failed' && verdict.reason === 'unfranked', what);
        }
        // Signed and stored before the cut-off: history from before franking, verified.
        for (const [what, signed] of [
          ['a message signed and stored before', { ...message, createdAt: signedBefore }],
          ['an edit signed and stored before', { ...untaggedEdit, createdAt: signedBefore }],
        ] as const)
          assert((await check(signed, storedBefore)).status === 'verified', what);
        // What carries no text of its sender's needs no tag.
        const deletion: SignedMessageAction = {
          ...edit,
          kind: 'delete',
          sealed: null,
          v2: { ...v2, keyCommitment: null, replaces: null },
        };
        assert((await check(deletion)).status === 'verified', 'a deletion after the cut-off');
        // A version 3 message after the cut-off verifies: the tag is what the rule asks for.
        const tagged: SignedMessage = {
          ...message,
          v2: { ...message.v2!, franking: (await c.frankText('no tag')).tag },
        };
        assert((await check(tagged)).status === 'verified', 'a tagged message after the cut-off');
      },
    },
  ];
};
