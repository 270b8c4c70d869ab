import {
  directChatRef,
  encodeMessageContent,
  encryptMessage,
  frankingSince,
  frankText,
  exportPublicKeySpkiBase64,
  generateSigningKeyPair,
  generateUserKeyPair,
  importPublicKeySpkiBase64,
  signKeyLogEntry,
  signMessage,
  verifyMessageSignature,
  keyCommitmentOf,
  type EncryptedEnvelope,
  type SignatureSequence,
  type SignedMessage,
} from '@veil/crypto';
import type { MessageView } from '@veil/contracts';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  currentUserId,
  messageWithText,
  openChat,
  sayHi,
  sendMessage,
  signedUpPerson,
  uniqueName,
} from './flows.ts';
import type { TimelineMessage } from '@veil/ports';
import { useVeilWeb } from './harness.ts';
import { lyingLog } from './lying-log.ts';
import { sequenceOf } from '../src/features/keys/signature-fields.ts';

const password = 'correct horse 1';

/** A message as the message service's timeline shows it, and as a malicious server would rewrite it. */
type TimelineDoc = TimelineMessage;

/**
 * Sender signatures in real Chromium: browsers sign what they send, and a test playing a
 * malicious server writes forged, replayed, unsigned and key-dropped messages straight into the
 * message log the timeline is read from; the receiving browsers flag each one and never show its text. A member whose
 * client is this test (keys made in Node) signs messages the server cannot fake.
 */
describe('sender signatures (browser)', { timeout: 240_000 }, () => {
  const veil = useVeilWeb();
  const api = (path: string) => `${veil().url}/api/v1/${path}`;

  /** A member whose browser is this test: registered with keys made here, and logged in. */
  const nodePerson = async (prefix: string) => {
    const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
    const username = uniqueName(prefix);
    const form = new FormData();
    form.append('username', username);
    form.append('password', password);
    form.append('publicKey', await exportPublicKeySpkiBase64(encryption.publicKey));
    const signingKey = await exportPublicKeySpkiBase64(signing.publicKey);
    form.append('signingKey', signingKey);
    const entry = await signKeyLogEntry(
      null,
      { encryptionKey: form.get('publicKey') as string, signingKey, reason: 'registered' },
      signing.privateKey,
    );
    form.append('keyLogEntry', JSON.stringify(entry));
    const registered = await fetch(api('user/register'), { method: 'POST', body: form });
    expect(registered.status).toBe(201);
    const loggedIn = await fetch(api('user/login'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    const { user } = (
      (await loggedIn.json()) as { data: { user: { accesstoken: string; loggedUser: { _id: string } } } }
    ).data;
    return { username, id: user.loggedUser._id, token: user.accesstoken, signing };
  };
  type NodePerson = Awaited<ReturnType<typeof nodePerson>>;

  const call = async <T>(
    who: NodePerson,
    path: string,
    init: { method: string; body?: unknown } = { method: 'GET' },
  ) => {
    const response = await fetch(api(path), {
      method: init.method,
      headers: { Authorization: `Bearer ${who.token}`, 'Content-Type': 'application/json' },
      ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
    });
    const body = (await response.json()) as { success: boolean; data: T; message: string };
    if (!response.ok) throw new Error(`${path}: ${response.status} ${body.message}`);
    return body.data;
  };
  const publicKeyOf = async (who: NodePerson, userId: string) =>
    importPublicKeySpkiBase64((await call<{ publicKey: string }>(who, `user/publicKey/${userId}`)).publicKey);

  /** Text sealed for `readers` (the server knows every public key, so it can do this too). */
  const sealFor = async (who: NodePerson, text: string, readers: readonly string[]) => {
    const keys = Object.fromEntries(
      await Promise.all(readers.map(async (id) => [id, await publicKeyOf(who, id)])),
    );
    return encryptMessage(text, keys);
  };
  /**
   * A message's text sealed as a client seals it: with a fresh franking key inside, and the tag
   * a version 3 signature carries (`franking`).
   */
  const frankedFor = async (who: NodePerson, text: string, readers: readonly string[]) => {
    const { key, tag } = await frankText(text);
    const content = encodeMessageContent({ text, attachments: [], franking: key });
    return { envelope: await sealFor(who, content, readers), franking: tag };
  };

  /**
   * What a version 2 signature adds, as a client signs it: the commitment from sealing, the
   * key-log heads this member is served for itself and each reader, a counter and the previous
   * message (each member's own count in this test).
   */
  const counters = new Map<string, number>();
  const sequenceFor = async (
    who: NodePerson,
    envelope: EncryptedEnvelope | null,
    readers: readonly string[],
    prev: string | null = null,
  ): Promise<SignatureSequence & { keyCommitment: string }> => {
    const heads = await Promise.all(
      [...new Set([who.id, ...readers])].map(async (id) => {
        const log = await call<{ entries: { hash: string }[] }>(who, `users/${id}/keyLog`);
        return [id, log.entries.at(-1)!.hash] as const;
      }),
    );
    const counter = (counters.get(who.id) ?? 0) + 1;
    counters.set(who.id, counter);
    return {
      keyCommitment: envelope?.keyCommitment ?? '',
      keyLogHeads: Object.fromEntries(heads),
      counter,
      prev,
    };
  };
  /** Version 3 with a franking tag, else version 2. */
  const signatureObject = (value: string, signedAt: string, v2: SignatureSequence) => ({
    value,
    signedAt,
    version: v2.franking !== undefined ? (3 as const) : (2 as const),
    ...v2,
  });

  /**
   * A group message as `who`'s client sends it over HTTP: sealed for `readers`, signed at
   * `signedAt`, version 3 with a franking tag, or version 2 without one (`tagged: false`, a
   * modified client's). A modified client may also sign a tag of another text (`frankAs`), or a
   * commitment to a key other than the one it sealed with (`commitTo`).
   */
  const sendToGroup = async (
    who: NodePerson,
    chatId: string,
    readers: readonly string[],
    {
      text,
      clientMessageId,
      replyTo = null,
      tagged = true,
      signedAt = new Date().toISOString(),
      frankAs,
      commitTo,
    }: {
      text: string;
      clientMessageId: string;
      replyTo?: string | null;
      tagged?: boolean;
      signedAt?: string;
      frankAs?: string;
      commitTo?: Uint8Array<ArrayBuffer>;
    },
  ) => {
    const franked = tagged ? await frankedFor(who, text, readers) : null;
    const envelope = franked?.envelope ?? (await sealFor(who, text, readers));
    const sequence = await sequenceFor(who, envelope, readers);
    const committed = commitTo ? { ...sequence, keyCommitment: await keyCommitmentOf(commitTo) } : sequence;
    const franking = frankAs === undefined ? franked?.franking : (await frankText(frankAs)).tag;
    const v2 = franking ? { ...committed, franking } : committed;
    const value = await signMessage(who.signing.privateKey, {
      ciphertext: envelope.content,
      iv: envelope.iv,
      chat: chatId,
      senderId: who.id,
      clientMessageId,
      replyTo,
      createdAt: signedAt,
      encryptedKeys: envelope.encryptedKeys,
      v2,
    });
    const { message } = await call<{ message: MessageView }>(who, `message/sendGroupMessage/${chatId}`, {
      method: 'POST',
      body: {
        encryptedMessage: envelope.content,
        iv: envelope.iv,
        encryptedKeys: envelope.encryptedKeys,
        clientMessageId,
        replyTo,
        signature: signatureObject(value, signedAt, v2),
      },
    });
    return message;
  };

  /** The server's message log, as a liar writes it (opened once the server has made it). */
  let log: ReturnType<typeof lyingLog> | undefined;
  const timeline = () => (log ??= lyingLog(veil().dataDir));
  afterAll(() => log?.close());
  const docsOf = async (chatId: string) => timeline().find({ chat: chatId });
  /** The sender's first message in the timeline, once its send is acknowledged. */
  const firstStoredFrom = async (sender: string) => {
    let found: TimelineDoc | undefined;
    await expect.poll(async () => (found = timeline().find({ sender })[0])).toBeDefined();
    return found!;
  };
  let nextSeq = 1_000_000;
  /** Writes a message into the log, as a server that lies about what was sent would. */
  const plant = async (doc: Omit<TimelineDoc, '_id' | 'seq' | 'seenBy'>) => {
    nextSeq += 1;
    const planted = { ...doc, _id: `planted${nextSeq}`, seq: nextSeq, seenBy: {} };
    timeline().plant(planted);
    return planted;
  };

  const messageTexts = (page: Page) => page.getByTestId('message-text');
  const reopen = async (page: Page, title: string) => {
    await page.goto('/all-chats');
    await openChat(page, title);
  };

  it('signs every message it sends, and shows who each was sealed for', async () => {
    const [alice, bob] = await Promise.all([signedUpPerson(veil(), 'sa'), signedUpPerson(veil(), 'sb')]);
    await sayHi(alice.page, bob.name);
    await sendMessage(alice.page, 'signed and sealed');
    await messageWithText(alice.page, 'signed and sealed').waitFor();
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);

    // What the server stored carries a signature that holds for Alice's published signing key.
    const { chat } = await firstStoredFrom(aliceId);
    await expect.poll(async () => (await docsOf(chat)).length).toBe(2);
    const docs = await docsOf(chat);
    const directory = await veil().readStore.collection<{ _id: string; signingKey: string }>(
      'user_directory',
    );
    const { signingKey } = (await directory.get(aliceId))!;
    for (const doc of docs) {
      expect(doc.signature).toBeDefined();
      const signed: SignedMessage = {
        ciphertext: doc.content,
        iv: doc.iv,
        chat: directChatRef(aliceId, bobId),
        senderId: aliceId,
        clientMessageId: doc.clientMessageId!,
        replyTo: doc.replyTo,
        createdAt: doc.signature!.signedAt,
        encryptedKeys: doc.encryptedKeys,
        v2: sequenceOf(doc.signature)!,
      };
      // Version 3: version 2 with the franking tag (docs/crypto.md, "Message franking").
      expect(doc.signature!.version).toBe(3);
      expect(doc.signature!.franking).toMatch(/^[A-Za-z0-9+/]{43}=$/);
      expect(await verifyMessageSignature(signingKey, signed, doc.signature!.value)).toBe(true);
    }

    // Bob's browser checked them: each is shown, sealed for both of them, and says so on demand.
    await openChat(bob.page, alice.name);
    const message = messageWithText(bob.page, 'signed and sealed');
    await message.waitFor();
    const toggle = message.getByRole('button', { name: 'Sealed for 2 of 2' });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
    const sealedFor = message.getByRole('list', { name: 'Sealed for' });
    await expect
      .poll(() => sealedFor.getByRole('listitem').allInnerTexts())
      .toEqual(expect.arrayContaining(['You', alice.name]));
    expect(await bob.page.getByTestId('sealed-wrongly').count()).toBe(0);
    expect(await messageTexts(bob.page).filter({ hasText: 'could not be verified' }).count()).toBe(0);
  });

  it('flags forged, replayed, unsigned and key-dropped messages written by a malicious server', async () => {
    const [alice, bob] = await Promise.all([signedUpPerson(veil(), 'fa'), signedUpPerson(veil(), 'fb')]);
    const mallory = await nodePerson('fm');
    await sayHi(alice.page, bob.name);
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);
    const real = await firstStoredFrom(aliceId);

    // A group of the three, and a message Mallory really sent, signed by her own client.
    const groupName = uniqueName('grp');
    const group = await call<{ _id: string }>(mallory, 'chat/creategroupchat', {
      method: 'POST',
      body: { groupName, participants: [aliceId, bobId] },
    });
    const members = [mallory.id, aliceId, bobId];
    const sendSigned = async (text: string, readers: readonly string[], clientMessageId: string) => {
      const { envelope, franking } = await frankedFor(mallory, text, readers);
      const signedAt = new Date().toISOString();
      const v2 = { ...(await sequenceFor(mallory, envelope, readers)), franking };
      const signed: SignedMessage = {
        ciphertext: envelope.content,
        iv: envelope.iv,
        chat: group._id,
        senderId: mallory.id,
        clientMessageId,
        replyTo: null,
        createdAt: signedAt,
        encryptedKeys: envelope.encryptedKeys,
        v2,
      };
      const value = await signMessage(mallory.signing.privateKey, signed);
      return { envelope, signature: signatureObject(value, signedAt, v2) };
    };
    const honest = await sendSigned('honest group message', members, 'honest-0001');
    await call<{ message: MessageView }>(mallory, `message/sendGroupMessage/${group._id}`, {
      method: 'POST',
      body: {
        encryptedMessage: honest.envelope.content,
        iv: honest.envelope.iv,
        encryptedKeys: honest.envelope.encryptedKeys,
        clientMessageId: 'honest-0001',
        signature: honest.signature,
      },
    });
    const stored = await firstStoredFrom(mallory.id);
    // Mallory reacts to her message, signed by her client; the server adds one "from Alice", unsigned.
    const reactWith = async (emoji: string) => {
      const envelope = await sealFor(mallory, emoji, members);
      const signedAt = new Date().toISOString();
      const v2 = await sequenceFor(mallory, envelope, members);
      const value = await signMessage(mallory.signing.privateKey, {
        kind: 'reaction',
        target: stored._id,
        chat: group._id,
        senderId: mallory.id,
        createdAt: signedAt,
        sealed: { ciphertext: envelope.content, iv: envelope.iv, encryptedKeys: envelope.encryptedKeys },
        v2: { ...v2, replaces: null },
      });
      return { envelope, signature: signatureObject(value, signedAt, v2) };
    };
    const signedReaction = await reactWith('👍');
    await call(mallory, `message/${stored._id}/reaction`, {
      method: 'PUT',
      body: {
        encryptedReaction: signedReaction.envelope.content,
        iv: signedReaction.envelope.iv,
        encryptedKeys: signedReaction.envelope.encryptedKeys,
        signature: signedReaction.signature,
      },
    });
    const forgedReaction = (await reactWith('😈')).envelope;
    // Once Mallory's reaction is stored, the server writes its own beside it.
    await expect.poll(async () => timeline().get(stored._id)?.reactions?.[mallory.id]).toBeDefined();
    const withReactions = timeline().get(stored._id)!;
    timeline().rewrite({
      ...withReactions,
      reactions: {
        ...withReactions.reactions,
        [aliceId]: {
          content: forgedReaction.content,
          iv: forgedReaction.iv,
          encryptedKeys: forgedReaction.encryptedKeys,
        },
      },
    });

    const now = () => new Date().toISOString();
    // 1. A new text "from Alice", with her real message's signature.
    const forged = await sealFor(mallory, 'forged by the server', [aliceId, bobId]);
    await plant({
      ...real,
      content: forged.content,
      iv: forged.iv,
      encryptedKeys: forged.encryptedKeys,
      createdAt: now(),
    });
    // 2. The same text "from Alice", unsigned, as if she had never signed.
    const unsigned = await sealFor(mallory, 'unsigned forgery', [aliceId, bobId]);
    const { signature: _dropped, clientMessageId: _id, ...bare } = real;
    await plant({
      ...bare,
      content: unsigned.content,
      iv: unsigned.iv,
      encryptedKeys: unsigned.encryptedKeys,
      createdAt: now(),
    });
    // 3. An "edit" of Alice's real message: new text, her original signature, no edit signature.
    const rewritten = await sealFor(mallory, 'edited by the server', [aliceId, bobId]);
    await plant({
      ...real,
      content: rewritten.content,
      iv: rewritten.iv,
      encryptedKeys: rewritten.encryptedKeys,
      createdAt: now(),
      editedAt: now(),
    });
    // 4. A message of Alice's "deleted for everyone" by the server alone: an unsigned tombstone.
    await plant({ ...real, content: '', iv: '', encryptedKeys: {}, createdAt: now(), deleted: true });
    // 5. Alice's real one-to-one message replayed into the group.
    await plant({ ...real, chat: group._id, createdAt: now() });
    // 6. Mallory's real group message with Alice's key dropped.
    const { [aliceId]: _aliceKey, ...withoutAlice } = stored.encryptedKeys;
    await plant({ ...stored, encryptedKeys: withoutAlice, createdAt: now() });
    // 7. A message Mallory's client signed itself, sealed for Bob and her only: a member left out.
    const leftOut = await sendSigned('not for alice', [mallory.id, bobId], 'leftout-0001');
    await plant({
      chat: group._id,
      sender: mallory.id,
      content: leftOut.envelope.content,
      iv: leftOut.envelope.iv,
      encryptedKeys: leftOut.envelope.encryptedKeys,
      replyTo: null,
      createdAt: now(),
      clientMessageId: 'leftout-0001',
      signature: leftOut.signature,
    });
    // 8. Unsigned, dated before Mallory had any key: history from before signatures.
    const legacy = await sealFor(mallory, 'from before signatures', members);
    await plant({
      chat: group._id,
      sender: mallory.id,
      content: legacy.content,
      iv: legacy.iv,
      encryptedKeys: legacy.encryptedKeys,
      replyTo: null,
      createdAt: '2020-01-01T00:00:00.000Z',
    });

    // Bob, in the one-to-one chat: the forgeries flagged with their reasons, no text of theirs shown.
    await reopen(bob.page, alice.name);
    const flagged = messageTexts(bob.page).filter({ hasText: 'This message could not be verified' });
    await expect.poll(() => flagged.count()).toBe(3);
    await messageTexts(bob.page).filter({ hasText: 'its signature does not match' }).waitFor();
    await messageWithText(bob.page, `Hi ${bob.name}`).waitFor();
    await expect
      .poll(() => messageTexts(bob.page).filter({ hasText: 'it is not signed, but its sender' }).count())
      .toBe(3);
    await messageTexts(bob.page)
      .filter({ hasText: 'This message was removed, but its deletion could not be verified' })
      .waitFor();
    for (const text of ['forged by the server', 'unsigned forgery', 'edited by the server'])
      expect(await messageTexts(bob.page).getByText(text).count()).toBe(0);

    // Bob and Alice, in the group: the replay and the dropped key flagged, the member left out
    // flagged to both, the honest message and the legacy one shown as they are.
    for (const page of [bob.page, alice.page]) {
      await reopen(page, groupName);
      const honestMessage = messageWithText(page, 'honest group message');
      await honestMessage.waitFor();
      // Mallory's signed reaction shows; the one the server made up for Alice does not.
      await honestMessage.getByRole('button', { name: new RegExp(`^👍 1: ${mallory.username}$`) }).waitFor();
      expect(await honestMessage.getByRole('button', { name: /😈/ }).count()).toBe(0);
      await expect
        .poll(() => messageTexts(page).filter({ hasText: 'its signature does not match' }).count())
        .toBe(2);
      expect(await messageWithText(page, `Hi ${bob.name}`).count()).toBe(0);
      const warning = page.getByTestId('sealed-wrongly');
      await warning.waitFor();
      expect(await warning.innerText()).toContain(`Left out: ${page === alice.page ? 'You' : alice.name}`);
      await page
        .getByTestId('message')
        .filter({ has: page.getByTestId('legacy-message') })
        .waitFor();
    }
    // Only Bob holds a key for the message that left Alice out, and he reads it, flagged.
    await messageWithText(bob.page, 'not for alice').getByTestId('sealed-wrongly').waitFor();
    await messageWithText(bob.page, 'from before signatures')
      .getByText('Sent before messages were signed')
      .waitFor();
  });
  it('checks chat list previews as the chat checks messages: a forged one shows no text', async () => {
    const [alice, bob] = await Promise.all([signedUpPerson(veil(), 'pa'), signedUpPerson(veil(), 'pb')]);
    const mallory = await nodePerson('pm');
    await sayHi(alice.page, bob.name);
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);
    const real = await firstStoredFrom(aliceId);

    // A group whose newest message is a signed reply, sent by Mallory's own client.
    const groupName = uniqueName('pgr');
    const group = await call<{ _id: string }>(mallory, 'chat/creategroupchat', {
      method: 'POST',
      body: { groupName, participants: [aliceId, bobId] },
    });
    const members = [mallory.id, aliceId, bobId];
    const sendSigned = (text: string, clientMessageId: string, replyTo: string | null) =>
      sendToGroup(mallory, group._id, members, { text, clientMessageId, replyTo });
    const first = await sendSigned('the first one', 'preview-0001', null);
    await sendSigned('a signed reply', 'preview-0002', first._id);

    const previewIn = (title: string) =>
      bob.page.getByTestId('chat-item').filter({ hasText: title }).getByTestId('chat-preview');
    /** Bob's chat list after a fresh load (previews are kept per page): `title`'s preview reads `text`. */
    const previewAfterLoad = async (title: string, text: string) => {
      await bob.page.goto('/all-chats');
      await expect.poll(() => previewIn(title).textContent()).toBe(text);
    };

    // Both verified against the key map's summary the unread answer carries: shown.
    await previewAfterLoad(alice.name, `Hi ${bob.name}`);
    await previewAfterLoad(groupName, `${mallory.username}: a signed reply`);
    // Mallory's client signs a franking tag that its text does not give (a message no report
    // could verify): the preview shows no text, as the open chat does.
    await sendToGroup(mallory, group._id, members, {
      text: 'unreportable words',
      clientMessageId: 'preview-0003',
      frankAs: 'something else',
    });
    await previewAfterLoad(groupName, `${mallory.username}: Message could not be verified`);
    expect(await bob.page.getByText('unreportable words').count()).toBe(0);

    // The server rewrites Alice's message, the chat's newest, in place.
    const rewrite = async (change: Partial<TimelineDoc>, unsigned = false) => {
      const { signature: _signature, clientMessageId: _id, ...bare } = real;
      timeline().rewrite({ ...(unsigned ? bare : real), ...change });
    };
    const forged = await sealFor(mallory, 'forged preview', [aliceId, bobId]);
    const sealed = { content: forged.content, iv: forged.iv, encryptedKeys: forged.encryptedKeys };
    const unverified = 'Message could not be verified';
    // 1. New text under her signature; 2. the same, unsigned; 3. an "edit" with no edit signature;
    // 4. deleted for everyone by the server alone.
    const forgeries: [Partial<TimelineDoc>, boolean][] = [
      [sealed, false],
      [sealed, true],
      [{ ...sealed, editedAt: new Date().toISOString() }, false],
      [{ content: '', iv: '', encryptedKeys: {}, deleted: true }, true],
    ];
    for (const [change, unsigned] of forgeries) {
      await rewrite(change, unsigned);
      await previewAfterLoad(alice.name, unverified);
      expect(await bob.page.getByText('forged preview').count()).toBe(0);
    }
    // Unsigned and dated before Alice had a signing key: history from before signatures, shown.
    await rewrite({ ...sealed, createdAt: '2020-01-01T00:00:00.000Z' }, true);
    await previewAfterLoad(alice.name, 'forged preview');
  });
  it('labels a replayed message, its text still shown, and refuses a message whose key is not the one it commits to', async () => {
    const [alice, bob] = await Promise.all([signedUpPerson(veil(), 'ra'), signedUpPerson(veil(), 'rb')]);
    const mallory = await nodePerson('rm');
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);
    const groupName = uniqueName('rgr');
    const group = await call<{ _id: string }>(mallory, 'chat/creategroupchat', {
      method: 'POST',
      body: { groupName, participants: [aliceId, bobId] },
    });
    const members = [mallory.id, aliceId, bobId];
    /** A v3 message of Mallory's, sent through the API; `commitTo` replaces the key it commits to. */
    const send = (text: string, clientMessageId: string, commitTo?: Uint8Array<ArrayBuffer>) =>
      sendToGroup(mallory, group._id, members, { text, clientMessageId, ...(commitTo && { commitTo }) });
    await send('yes, do it', 'replay-0001');
    const original = await firstStoredFrom(mallory.id);
    await send('a second message', 'replay-0002');
    // Mallory's own client signs a commitment to a key other than the one it wrapped for everyone.
    await send('two-faced text', 'faced-0001', crypto.getRandomValues(new Uint8Array(32)));
    // The server delivers the signed "yes, do it" again, as a new message.
    await plant({ ...original, createdAt: new Date().toISOString() });

    for (const page of [bob.page, alice.page]) {
      await reopen(page, groupName);
      const copies = messageWithText(page, 'yes, do it');
      await expect.poll(() => copies.count()).toBe(2);
      // The copy stored later carries the label; the first one does not.
      const flag = page.getByTestId('order-flag');
      await expect.poll(() => flag.count()).toBe(1);
      expect(await flag.getAttribute('data-flag')).toBe('replayed');
      expect(await flag.innerText()).toContain('This message may have been replayed');
      expect(await copies.nth(0).getByTestId('order-flag').count()).toBe(0);
      await messageWithText(page, 'a second message').waitFor();
      await messageTexts(page)
        .filter({ hasText: 'its sender gave different readers different keys for it' })
        .waitFor();
      expect(await messageTexts(page).getByText('two-faced text').count()).toBe(0);
    }
  });

  it('refuses a message or an edit without a franking tag after the cut-off, one back-dated before it included, and one whose tag does not fit', async () => {
    const [alice, bob] = await Promise.all([signedUpPerson(veil(), 'ua'), signedUpPerson(veil(), 'ub')]);
    const mallory = await nodePerson('um');
    const [aliceId, bobId] = await Promise.all([currentUserId(alice.page), currentUserId(bob.page)]);
    const groupName = uniqueName('ugr');
    const group = await call<{ _id: string }>(mallory, 'chat/creategroupchat', {
      method: 'POST',
      body: { groupName, participants: [aliceId, bobId] },
    });
    const members = [mallory.id, aliceId, bobId];
    const cutOff = Date.parse(frankingSince);
    // The server stores what is sent now: after the cut-off, whatever time the sender signs.
    expect(Date.now()).toBeGreaterThanOrEqual(cutOff);
    const afterCutOff = () => new Date(Math.max(Date.now(), cutOff + 60_000)).toISOString();
    const beforeCutOff = new Date(cutOff - 60_000).toISOString();

    /**
     * Mallory's modified client: a message signed as version 2 (no tag) or 3, at the time it
     * chooses; a time before the cut-off does not save an untagged one, stored after it.
     */
    const send = async (text: string, clientMessageId: string, tagged: boolean, signedAt: string) => {
      const message = await sendToGroup(mallory, group._id, members, {
        text,
        clientMessageId,
        tagged,
        signedAt,
      });
      return { id: message._id, clientMessageId };
    };
    /**
     * An edit of one of them, signed after the cut-off unless back-dated: untagged (version 2),
     * tagged, or tagged for another text.
     */
    const editTo = async (
      message: { id: string; clientMessageId: string },
      text: string,
      tag: 'none' | 'fits' | 'another text',
      signedAt = afterCutOff(),
    ) => {
      const franked = await frankedFor(mallory, text, members);
      const envelope = tag === 'none' ? await sealFor(mallory, text, members) : franked.envelope;
      const sequence = await sequenceFor(mallory, envelope, members);
      const franking = tag === 'another text' ? (await frankText('not what it says')).tag : franked.franking;
      const v2 = tag === 'none' ? sequence : { ...sequence, franking };
      const value = await signMessage(mallory.signing.privateKey, {
        kind: 'edit',
        target: message.id,
        chat: group._id,
        senderId: mallory.id,
        createdAt: signedAt,
        sealed: { ciphertext: envelope.content, iv: envelope.iv, encryptedKeys: envelope.encryptedKeys },
        v2: { ...v2, replaces: message.clientMessageId },
      });
      await call(mallory, `message/${message.id}`, {
        method: 'PUT',
        body: {
          encryptedMessage: envelope.content,
          iv: envelope.iv,
          encryptedKeys: envelope.encryptedKeys,
          signature: { ...signatureObject(value, signedAt, v2), replaces: message.clientMessageId },
        },
      });
    };

    await send('untagged, signed after the cut-off', 'untagged-after', false, afterCutOff());
    await send('untagged, signed before the cut-off', 'untagged-before', false, beforeCutOff);
    const toStrip = await send('first words, to be stripped', 'edit-untagged', true, afterCutOff());
    const toEdit = await send('first words, to be tagged again', 'edit-tagged', true, afterCutOff());
    const toMismatch = await send('first words, to be mismatched', 'edit-mismatch', true, afterCutOff());
    const toBackDate = await send(
      'first words, to be edited back-dated',
      'edit-back-dated',
      true,
      new Date(cutOff - 120_000).toISOString(),
    );

    const unfranked = (page: Page) =>
      messageTexts(page).filter({ hasText: 'its sender left out the commitment every message has carried' });
    const mismatched = (page: Page) =>
      messageTexts(page).filter({ hasText: 'its text does not match the commitment its sender signed' });
    const refusedTexts = [
      'untagged, signed after the cut-off',
      'untagged, signed before the cut-off',
      'edited without a tag',
      'edited without a tag, back-dated',
      'edited with a wrong tag',
    ];

    // Bob has the group open: both untagged messages are refused, the back-dated one too.
    await reopen(bob.page, groupName);
    await messageWithText(bob.page, 'first words, to be tagged again').waitFor();
    await messageWithText(bob.page, 'first words, to be edited back-dated').waitFor();
    await expect.poll(() => unfranked(bob.page).count()).toBe(2);

    // The edits arrive live, each checked as it comes.
    await editTo(toStrip, 'edited without a tag', 'none');
    await editTo(toEdit, 'edited with a tag', 'fits');
    await editTo(toMismatch, 'edited with a wrong tag', 'another text');
    await editTo(toBackDate, 'edited without a tag, back-dated', 'none', beforeCutOff);
    await messageWithText(bob.page, 'edited with a tag').waitFor();
    await expect.poll(() => unfranked(bob.page).count()).toBe(4);
    await expect.poll(() => mismatched(bob.page).count()).toBe(1);
    for (const text of refusedTexts) expect(await messageTexts(bob.page).getByText(text).count()).toBe(0);

    // And from the history, in a fresh load, for both members.
    for (const page of [bob.page, alice.page]) {
      await reopen(page, groupName);
      await messageWithText(page, 'edited with a tag').waitFor();
      await expect.poll(() => unfranked(page).count()).toBe(4);
      await expect.poll(() => mismatched(page).count()).toBe(1);
      for (const text of refusedTexts) expect(await messageTexts(page).getByText(text).count()).toBe(0);
    }
  });
});
