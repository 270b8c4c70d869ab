import { describe, expect, it } from 'vitest';
import { directChatRef, signMessage, verifyMessageSignature } from '@veil/crypto';
import { expectJsonError } from './support/json-errors.ts';
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
});
