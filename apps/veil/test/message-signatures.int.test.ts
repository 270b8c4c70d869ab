import { afterAll, describe, expect, it } from 'vitest';
import type { MessageView } from '@veil/contracts';
import {
  directChatRef,
  sealIndividualPayload,
  signMessage,
  verifyMessageSignature,
  type SignedMessage,
} from '@veil/crypto';
import { expectJsonError } from './support/json-errors.ts';
import { socketPool } from './support/sockets.ts';
import { useTestVeil } from './support/test-veil.ts';
import { createSigningUser, createUser, directMessage } from './support/users.ts';

/**
 * Sender signatures over real HTTP: the server checks a signature's shape, stores it with the
 * message and gives it back as sent; a reader verifies it against the sender's signing key from
 * the key log. What the server cannot do is make a signature for a message it changed.
 */
const running = useTestVeil();

/** A user with a signing key published at registration, as the browser registers. */
const signingUser = (base: string) => createSigningUser(running.api, base);
const sockets = socketPool(() => running.veil.url);
afterAll(() => sockets.closeAll());

describe('sender signatures', () => {
  it('stores and returns a signed message as sent, and the reader verifies it with the key log', async () => {
    const alice = await signingUser('sigsend');
    const bob = await signingUser('sigread');
    const payload = await directMessage(alice, bob, 'signed hello');
    const clientMessageId = 'signed-message-1';
    const signedAt = new Date().toISOString();
    const signature = {
      value: await signMessage(alice.signing.privateKey, {
        ciphertext: payload.encryptedMessage,
        iv: payload.iv,
        chat: directChatRef(alice._id, bob._id),
        senderId: alice._id,
        clientMessageId,
        replyTo: null,
        createdAt: signedAt,
        encryptedKeys: {
          [bob._id]: payload.encryptedAESKeyForRecipient,
          [alice._id]: payload.encryptedAESKeyForSender,
        },
      }),
      signedAt,
    };
    const sent = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      { ...payload, clientMessageId, signature },
      alice.accessToken,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.data.message.signature).toEqual(signature);
    // The reader needs the client message id the signature covers.
    expect(sent.body.data.message.clientMessageId).toBe(clientMessageId);

    const history = await running.api.get(
      `/api/v1/chat/getallmessages/${sent.body.data.chat._id}`,
      bob.accessToken,
    );
    const [stored] = history.body.data.messages;
    expect(stored.signature).toEqual(signature);
    expect(stored.clientMessageId).toBe(clientMessageId);
    const log = (await running.api.get(`/api/v1/users/${alice._id}/keyLog`, bob.accessToken)).body.data;
    const signedMessage = {
      ciphertext: stored.content,
      iv: stored.iv,
      chat: directChatRef(bob._id, alice._id),
      senderId: stored.sender._id,
      clientMessageId,
      replyTo: null,
      createdAt: stored.signature.signedAt,
      encryptedKeys: stored.encryptedKeys,
    };
    expect(
      await verifyMessageSignature(log.entries.at(-1).signingKey, signedMessage, stored.signature.value),
    ).toBe(true);
    // Had the server moved it to another reader, the signature would not hold.
    const moved = { ...signedMessage, encryptedKeys: { ...stored.encryptedKeys, mallory: 'AAAA' } };
    expect(await verifyMessageSignature(log.entries.at(-1).signingKey, moved, stored.signature.value)).toBe(
      false,
    );

    // An unsigned message stays as it was: no signature field.
    const unsigned = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      await directMessage(alice, bob, 'unsigned'),
      alice.accessToken,
    );
    expect(unsigned.status).toBe(201);
    expect(unsigned.body.data.message).not.toHaveProperty('signature');
  });

  it('refuses a malformed signature, or one without its clientMessageId, with a clear 400 and stores nothing', async () => {
    const alice = await signingUser('sigbad');
    const bob = await createUser(running.api, 'sigbadr');
    const good = { value: btoa('x'.repeat(64)), signedAt: new Date().toISOString() };
    const refused: [string, Record<string, unknown>][] = [
      ['short', { clientMessageId: 'client-bad-1', signature: { ...good, value: btoa('x'.repeat(63)) } }],
      ['not base64', { clientMessageId: 'client-bad-2', signature: { ...good, value: '!'.repeat(88) } }],
      ['no time', { clientMessageId: 'client-bad-3', signature: { value: good.value } }],
      ['a bad time', { clientMessageId: 'client-bad-4', signature: { ...good, signedAt: 'yesterday' } }],
      ['an extra field', { clientMessageId: 'client-bad-5', signature: { ...good, alg: 'none' } }],
      ['not an object', { clientMessageId: 'client-bad-6', signature: 'signed' }],
      ['no clientMessageId', { signature: good }],
    ];
    for (const [what, extra] of refused) {
      const res = await running.api.post(
        `/api/v1/message/sendIndividualMessage/${bob._id}`,
        { ...(await directMessage(alice, bob, what)), ...extra },
        alice.accessToken,
      );
      expectJsonError(
        res,
        400,
        'VALIDATION_FAILED',
        /signature|clientMessageId|Unrecognized key|expected object/,
      );
    }
    const chats = (await running.api.get('/api/v1/chat/getallchats', alice.accessToken)).body.data;
    for (const chat of chats) {
      const messages = (await running.api.get(`/api/v1/chat/getallmessages/${chat._id}`, alice.accessToken))
        .body.data.messages;
      expect(messages).toEqual([]);
    }
  });

  it('stores and returns a signed edit beside the signed original, and refuses a malformed one', async () => {
    const alice = await signingUser('sigedit');
    const bob = await signingUser('sigeditr');
    const sent = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      await directMessage(alice, bob, 'before'),
      alice.accessToken,
    );
    const messageId = sent.body.data.message._id;
    const chatId = sent.body.data.chat._id;
    const edit = await directMessage(alice, bob, 'after');
    const encryptedKeys = {
      [bob._id]: edit.encryptedAESKeyForRecipient,
      [alice._id]: edit.encryptedAESKeyForSender,
    };
    const signedAt = new Date().toISOString();
    const action = {
      kind: 'edit' as const,
      target: messageId,
      chat: directChatRef(alice._id, bob._id),
      senderId: alice._id,
      createdAt: signedAt,
      sealed: { ciphertext: edit.encryptedMessage, iv: edit.iv, encryptedKeys },
    };
    const signature = { value: await signMessage(alice.signing.privateKey, action), signedAt };
    const body = { encryptedMessage: edit.encryptedMessage, iv: edit.iv, encryptedKeys };

    const bad = await running.api.put(
      `/api/v1/message/${messageId}`,
      { ...body, signature: { ...signature, value: 'AAAA' } },
      alice.accessToken,
    );
    expectJsonError(bad, 400, 'VALIDATION_FAILED', /signature/);

    const edited = await running.api.put(
      `/api/v1/message/${messageId}`,
      { ...body, signature },
      alice.accessToken,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.data.message.editSignature).toEqual(signature);
    const [stored] = (await running.api.get(`/api/v1/chat/getallmessages/${chatId}`, bob.accessToken)).body
      .data.messages;
    expect(stored.editSignature).toEqual(signature);
    const shown = {
      ...action,
      sealed: { ciphertext: stored.content, iv: stored.iv, encryptedKeys: stored.encryptedKeys },
    };
    expect(await verifyMessageSignature(alice.signingKey, shown, stored.editSignature.value)).toBe(true);

    // An edit without a signature leaves none behind from the one before.
    const again = await directMessage(alice, bob, 'unsigned edit');
    const unsigned = await running.api.put(
      `/api/v1/message/${messageId}`,
      {
        encryptedMessage: again.encryptedMessage,
        iv: again.iv,
        encryptedKeys: {
          [bob._id]: again.encryptedAESKeyForRecipient,
          [alice._id]: again.encryptedAESKeyForSender,
        },
      },
      alice.accessToken,
    );
    expect(unsigned.status).toBe(200);
    expect(unsigned.body.data.message).not.toHaveProperty('editSignature');
  });

  it('keeps a signed deletion with the tombstone, and refuses a malformed one', async () => {
    const alice = await signingUser('sigdel');
    const bob = await signingUser('sigdelr');
    const sent = await running.api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      await directMessage(alice, bob, 'to be deleted'),
      alice.accessToken,
    );
    const messageId = sent.body.data.message._id;
    const signedAt = new Date().toISOString();
    const deletion = {
      kind: 'delete' as const,
      target: messageId,
      chat: directChatRef(alice._id, bob._id),
      senderId: alice._id,
      createdAt: signedAt,
      sealed: null,
    };
    const signature = { value: await signMessage(alice.signing.privateKey, deletion), signedAt };

    const remove = (json: unknown) =>
      running.api.call('DELETE', `/api/v1/message/${messageId}?for=everyone`, {
        json,
        token: alice.accessToken,
      });
    const bad = await remove({ signature: { ...signature, value: 'AAAA' } });
    expectJsonError(bad, 400, 'VALIDATION_FAILED', /signature/);

    const deleted = await remove({ signature });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const [tombstone] = (
      await running.api.get(`/api/v1/chat/getallmessages/${sent.body.data.chat._id}`, bob.accessToken)
    ).body.data.messages;
    expect(tombstone).toMatchObject({ _id: messageId, deleted: true, deleteSignature: signature });
    expect(await verifyMessageSignature(alice.signingKey, deletion, tombstone.deleteSignature.value)).toBe(
      true,
    );
  });

  describe('version 2', () => {
    type Signer = Awaited<ReturnType<typeof signingUser>>;
    const headOf = async (of: Signer, viewer: Signer) =>
      (await running.api.get(`/api/v1/users/${of._id}/keyLog`, viewer.accessToken)).body.data.entries.at(-1)
        .hash as string;
    /** A v2-signed first message from `from` to `to`, with the heads `from` is served. */
    const signedV2 = async (from: Signer, to: Signer, clientMessageId: string, counter = 1) => {
      const { payload, keyCommitment } = await sealIndividualPayload('v2 hello', {
        recipientId: to._id,
        recipientKey: to.keys.publicKey,
        senderId: from._id,
        senderKey: from.keys.publicKey,
      });
      const encryptedKeys = {
        [to._id]: payload.encryptedAESKeyForRecipient,
        [from._id]: payload.encryptedAESKeyForSender,
      };
      const signedAt = new Date().toISOString();
      const v2 = {
        keyCommitment,
        keyLogHeads: { [from._id]: await headOf(from, from), [to._id]: await headOf(to, from) },
        counter,
        prev: null,
      };
      const signed: SignedMessage = {
        ciphertext: payload.encryptedMessage,
        iv: payload.iv,
        chat: directChatRef(from._id, to._id),
        senderId: from._id,
        clientMessageId,
        replyTo: null,
        createdAt: signedAt,
        encryptedKeys,
        v2,
      };
      const signature = {
        value: await signMessage(from.signing.privateKey, signed),
        signedAt,
        version: 2,
        ...v2,
      };
      return { payload, encryptedKeys, signature, signed };
    };

    it('stores and returns every v2 field where the signature goes: the ack, history, the preview, live delivery', async () => {
      const alice = await signingUser('sigv2a');
      const bob = await signingUser('sigv2b');
      const first = await signedV2(alice, bob, 'v2-message-1');
      const sent = await running.api.post(
        `/api/v1/message/sendIndividualMessage/${bob._id}`,
        { ...first.payload, clientMessageId: 'v2-message-1', signature: first.signature },
        alice.accessToken,
      );
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      expect(sent.body.data.message.signature).toEqual(first.signature);
      const chatId = sent.body.data.chat._id as string;
      const [stored] = (await running.api.get(`/api/v1/chat/getallmessages/${chatId}`, bob.accessToken)).body
        .data.messages;
      expect(stored.signature).toEqual(first.signature);
      expect(
        await verifyMessageSignature(
          alice.signingKey,
          { ...first.signed, encryptedKeys: stored.encryptedKeys },
          stored.signature.value,
        ),
      ).toBe(true);
      const unread = (await running.api.get('/api/v1/message/unread', bob.accessToken)).body.data;
      const preview = unread.find((chat: { chatId: string }) => chat.chatId === chatId);
      expect(preview.lastMessage.signature).toEqual(first.signature);

      // Over the socket: the ack and the other member's delivery carry it whole.
      const [aliceSocket, bobSocket] = await Promise.all([sockets.connect(alice), sockets.connect(bob)]);
      const delivered: MessageView[] = [];
      bobSocket.on('message received', ({ message }) => delivered.push(message));
      const second = await signedV2(alice, bob, 'v2-message-2', 2);
      const ack = await aliceSocket.timeout(10_000).emitWithAck('send message', {
        chatId,
        encryptedMessage: second.payload.encryptedMessage,
        iv: second.payload.iv,
        encryptedKeys: second.encryptedKeys,
        clientMessageId: 'v2-message-2',
        signature: second.signature,
      } as never);
      expect(ack, JSON.stringify(ack)).toMatchObject({ ok: true });
      await expect
        .poll(() => delivered.find((m) => m.clientMessageId === 'v2-message-2')?.signature)
        .toEqual(second.signature);
    });

    it('refuses v2 fields out of shape, or that do not fit the message, with a clear 400 (a lying client)', async () => {
      const alice = await signingUser('sigv2bad');
      const bob = await signingUser('sigv2badr');
      const carol = await signingUser('sigv2badc');
      const { payload, signature } = await signedV2(alice, bob, 'v2-bad-0');
      const { version: _v, keyCommitment: _k, keyLogHeads: _h, counter: _c, prev: _p, ...v1 } = signature;
      const refused: [string, Record<string, unknown>, string, RegExp][] = [
        [
          'v2 fields without the version',
          { ...v1, counter: 1 },
          'VALIDATION_FAILED',
          /needs signature.version 2/,
        ],
        ['another version', { ...signature, version: 4 }, 'VALIDATION_FAILED', /version/],
        ['version 3 without a franking tag', { ...signature, version: 3 }, 'VALIDATION_FAILED', /franking/],
        [
          'a franking tag on version 2',
          { ...signature, franking: btoa('x'.repeat(32)) },
          'VALIDATION_FAILED',
          /franking/,
        ],
        [
          'a franking tag too short',
          { ...signature, version: 3, franking: btoa('x'.repeat(31)) },
          'VALIDATION_FAILED',
          /franking/,
        ],
        [
          'no heads',
          { ...v1, version: 2, counter: 1, prev: null },
          'VALIDATION_FAILED',
          /keyLogHeads is required/,
        ],
        ['no counter', { ...signature, counter: undefined }, 'VALIDATION_FAILED', /counter is required/],
        ['a zero counter', { ...signature, counter: 0 }, 'VALIDATION_FAILED', /counter starts at 1/],
        ['a fractional counter', { ...signature, counter: 1.5 }, 'VALIDATION_FAILED', /whole number/],
        [
          'a head not hex',
          { ...signature, keyLogHeads: { [bob._id]: 'z'.repeat(64) } },
          'VALIDATION_FAILED',
          /SHA-256/,
        ],
        [
          'a short head',
          { ...signature, keyLogHeads: { [bob._id]: 'a'.repeat(63) } },
          'VALIDATION_FAILED',
          /SHA-256/,
        ],
        [
          'a commitment too short',
          { ...signature, keyCommitment: btoa('x'.repeat(31)) },
          'VALIDATION_FAILED',
          /keyCommitment/,
        ],
        ['a bad previous message', { ...signature, prev: 'no' }, 'VALIDATION_FAILED', /clientMessageId/],
        [
          'a head for someone it is not sealed for',
          { ...signature, keyLogHeads: { ...signature.keyLogHeads, [carol._id]: 'a'.repeat(64) } },
          'SIGNATURE_MISMATCH',
          /not sealed for/,
        ],
        [
          'no commitment beside sealed text',
          { ...signature, keyCommitment: undefined },
          'SIGNATURE_MISMATCH',
          /keyCommitment/,
        ],
      ];
      for (const [index, [what, bad, code, pattern]] of refused.entries()) {
        const res = await running.api.post(
          `/api/v1/message/sendIndividualMessage/${bob._id}`,
          { ...payload, clientMessageId: `v2-bad-${index + 1}`, signature: JSON.parse(JSON.stringify(bad)) },
          alice.accessToken,
        );
        expect(res.status, what).toBe(400);
        expectJsonError(res, 400, code, pattern);
      }
      const chats = (await running.api.get('/api/v1/chat/getallchats', alice.accessToken)).body.data;
      for (const chat of chats)
        expect(
          (await running.api.get(`/api/v1/chat/getallmessages/${chat._id}`, alice.accessToken)).body.data
            .messages,
        ).toEqual([]);
    });
    it('takes a signed reaction removal, relays its signature live, and refuses one that does not fit', async () => {
      const alice = await signingUser('sigv2ra');
      const bob = await signingUser('sigv2rb');
      const carol = await signingUser('sigv2rc');
      const first = await signedV2(alice, bob, 'v2-react-1');
      const sent = await running.api.post(
        `/api/v1/message/sendIndividualMessage/${bob._id}`,
        { ...first.payload, clientMessageId: 'v2-react-1', signature: first.signature },
        alice.accessToken,
      );
      const messageId = sent.body.data.message._id as string;
      const reaction = await signedV2(bob, alice, 'v2-react-2');
      const reacted = await running.api.put(
        `/api/v1/message/${messageId}/reaction`,
        {
          encryptedReaction: reaction.payload.encryptedMessage,
          iv: reaction.payload.iv,
          encryptedKeys: reaction.encryptedKeys,
          signature: reaction.signature,
        },
        bob.accessToken,
      );
      expect(reacted.status, JSON.stringify(reacted.body)).toBe(200);

      const aliceSocket = await sockets.connect(alice);
      const notices: { removalSignature?: unknown; reaction: unknown }[] = [];
      aliceSocket.on('reaction', (notice) => notices.push(notice));
      const signedAt = new Date().toISOString();
      const v2 = {
        keyCommitment: null,
        keyLogHeads: reaction.signature.keyLogHeads,
        counter: 2,
        prev: null,
        replaces: null,
      };
      const value = await signMessage(bob.signing.privateKey, {
        kind: 'reaction-removal',
        target: messageId,
        chat: directChatRef(alice._id, bob._id),
        senderId: bob._id,
        createdAt: signedAt,
        sealed: null,
        v2,
      });
      const removal = { value, signedAt, version: 2, keyLogHeads: v2.keyLogHeads, counter: 2, prev: null };
      const remove = (signature: unknown) =>
        running.api.call('DELETE', `/api/v1/message/${messageId}/reaction`, {
          json: { signature },
          token: bob.accessToken,
        });
      const stranger = await remove({ ...removal, keyLogHeads: { [carol._id]: 'a'.repeat(64) } });
      expectJsonError(stranger, 400, 'SIGNATURE_MISMATCH', /not sealed for/);
      const committed = await remove({ ...removal, keyCommitment: btoa('x'.repeat(32)) });
      expectJsonError(committed, 400, 'SIGNATURE_MISMATCH', /commits to nothing/);
      const removed = await remove(removal);
      expect(removed.status, JSON.stringify(removed.body)).toBe(200);
      await expect
        .poll(() => notices.find((notice) => notice.reaction === null)?.removalSignature)
        .toEqual(removal);
    });
  });
});
