import type { SignedMessage } from '../src/index.ts';
import { assert, type CryptoCase, type CryptoModule } from './suite-kit.ts';

/**
 * Message franking: the tag commits to the text under a key only members hold; a report that
 * reveals another text or another key does not match the tag, and the tag is signed with the
 * message (version 3), so neither a reporter nor the server can swap it.
 */
export const frankingCases = (c: CryptoModule): CryptoCase[] => {
  const text = 'You will regret this, I know where you live.';
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
  ];
};
