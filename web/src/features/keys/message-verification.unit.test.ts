import type { GroupNotice } from '@veil/contracts';
import {
  checkMessageSignature,
  exportPublicKeySpkiBase64,
  generateSigningKeyPair,
  generateUserKeyPair,
  nextKeyLogEntry,
  signKeyLogEntry,
  type KeyLogEntry,
} from '@veil/crypto';
import { describe, expect, it } from 'vitest';
import { legacyOnlyBeforeSignedLog } from './legacy-messages.ts';
import { signOutgoing } from './message-signing.ts';
import { membersAt, sealedForAt, sealedWrongly, type ChatContext } from './message-verification.ts';
import { signatureTexts } from './signature-texts.ts';

const person = (id: string) => ({ _id: id, username: id, profilePicture: null });
const notice = (kind: GroupNotice['kind'], at: string, by: string, members: string[] = []): GroupNotice => ({
  kind,
  at,
  by: person(by),
  members: members.map(person),
});

/** A group made on day 1 by ann with bob and cat; dan added on day 5, bob removed on day 7, cat left on day 9. */
const group: ChatContext = {
  chatId: 'group-1',
  isGroupChat: true,
  memberIds: ['ann', 'dan'],
  notices: [
    notice('created', '2026-01-01T00:00:00.000Z', 'ann'),
    notice('added', '2026-01-05T00:00:00.000Z', 'ann', ['dan']),
    notice('removed', '2026-01-07T00:00:00.000Z', 'ann', ['bob']),
    notice('left', '2026-01-09T00:00:00.000Z', 'cat'),
  ],
};
const keysFor = (...ids: string[]) => Object.fromEntries(ids.map((id) => [id, `key-${id}`]));

describe('who a group message should have been sealed for (membersAt)', () => {
  it('undoes the changes made after the message', () => {
    expect(membersAt(group, '2026-01-02T00:00:00.000Z')?.sort()).toEqual(['ann', 'bob', 'cat']);
    expect(membersAt(group, '2026-01-06T00:00:00.000Z')?.sort()).toEqual(['ann', 'bob', 'cat', 'dan']);
    expect(membersAt(group, '2026-01-08T00:00:00.000Z')?.sort()).toEqual(['ann', 'cat', 'dan']);
    expect(membersAt(group, '2026-01-10T00:00:00.000Z')?.sort()).toEqual(['ann', 'dan']);
  });

  it('claims nothing about a time before the changes it still knows', () => {
    const trimmed = { ...group, notices: group.notices!.slice(1) };
    expect(membersAt(trimmed, '2026-01-02T00:00:00.000Z')).toBeNull();
    expect(membersAt(trimmed, '2026-01-06T00:00:00.000Z')?.sort()).toEqual(['ann', 'bob', 'cat', 'dan']);
  });

  it("answers a signed group from its verified membership, whatever the server's notices say", () => {
    // The chain starts with a snapshot on day 6 (ann, cat, dan); the server then claims an
    // "added" of mal on day 8 that no signed change holds.
    const signed: ChatContext = {
      ...group,
      memberIds: ['ann', 'cat', 'dan', 'mal'],
      notices: [...(group.notices ?? []), notice('added', '2026-01-08T00:00:00.000Z', 'ann', ['mal'])],
      membership: [
        { at: '2026-01-06T00:00:00.000Z', members: ['ann', 'bob', 'cat', 'dan'] },
        { at: '2026-01-07T00:00:00.000Z', members: ['ann', 'cat', 'dan'] },
      ],
    };
    expect(membersAt(signed, '2026-01-08T12:00:00.000Z')?.sort()).toEqual(['ann', 'cat', 'dan']);
    expect(membersAt(signed, '2026-01-06T12:00:00.000Z')?.sort()).toEqual(['ann', 'bob', 'cat', 'dan']);
    // Before the chain: the snapshot's members with the earlier notices undone.
    expect(membersAt(signed, '2026-01-02T00:00:00.000Z')?.sort()).toEqual(['ann', 'bob', 'cat']);
    const sealed = sealedForAt(
      { encryptedKeys: keysFor('ann', 'cat', 'dan', 'mal'), createdAt: '2026-01-08T12:00:00.000Z' },
      signed,
    );
    expect(sealed.strangers).toEqual(['mal']);
  });

  it('flags a key map that leaves out a member or names a stranger, and not one that was right then', () => {
    const at = '2026-01-06T00:00:00.000Z';
    const exact = sealedForAt({ encryptedKeys: keysFor('ann', 'bob', 'cat', 'dan'), createdAt: at }, group);
    expect(sealedWrongly(exact)).toBe(false);
    const dropped = sealedForAt({ encryptedKeys: keysFor('ann', 'bob', 'dan'), createdAt: at }, group);
    expect(dropped).toMatchObject({ missing: ['cat'], strangers: [] });
    const stranger = sealedForAt(
      { encryptedKeys: keysFor('ann', 'bob', 'cat', 'dan', 'eve'), createdAt: at },
      group,
    );
    expect(stranger).toMatchObject({ missing: [], strangers: ['eve'] });
    // Before dan was added, a message without his key is right.
    const early = sealedForAt(
      { encryptedKeys: keysFor('ann', 'bob', 'cat'), createdAt: '2026-01-02T00:00:00.000Z' },
      group,
    );
    expect(sealedWrongly(early)).toBe(false);
  });
});

describe('sending (signOutgoing)', () => {
  it('refuses a message not sealed for exactly the members, before any key is looked at', async () => {
    const outgoing = {
      chatId: 'group-1',
      isGroupChat: true,
      memberIds: ['ann', 'bob', 'cat'],
      senderId: 'ann',
      clientMessageId: 'client-0001',
      replyTo: null,
      createdAt: '2026-01-02T00:00:00.000Z',
    };
    const sealed = (...ids: string[]) => ({
      ciphertext: 'AAAA',
      iv: 'AAAAAAAAAAAAAAAA',
      encryptedKeys: keysFor(...ids),
      keyCommitment: 'AAAA',
    });
    await expect(signOutgoing({ ...outgoing, sealed: sealed('ann', 'bob') })).rejects.toThrow(
      signatureTexts.refuseToSend,
    );
    await expect(signOutgoing({ ...outgoing, sealed: sealed('ann', 'bob', 'cat', 'eve') })).rejects.toThrow(
      signatureTexts.refuseToSend,
    );
  });
});

describe('history from before signatures (legacyOnlyBeforeSignedLog)', () => {
  /** A legacy account: registered unsigned in January, its browser signed its log on March 1st. */
  const signedLog = async () => {
    const [encryption, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
    const keys = {
      encryptionKey: await exportPublicKeySpkiBase64(encryption.publicKey),
      signingKey: await exportPublicKeySpkiBase64(signing.publicKey),
    };
    const registered = await nextKeyLogEntry(null, {
      encryptionKey: keys.encryptionKey,
      signingKey: null,
      reason: 'registered',
      at: '2026-01-01T00:00:00.000Z',
    });
    const added = await signKeyLogEntry(
      registered,
      { ...keys, reason: 'signing-key-added', at: '2026-03-01T00:00:00.000Z' },
      signing.privateKey,
    );
    return [registered, added];
  };
  const message = {
    ciphertext: 'AAAA',
    iv: 'AAAAAAAAAAAAAAAA',
    chat: 'direct:a:b',
    senderId: 'a',
    clientMessageId: 'client-0001',
    replyTo: null,
    createdAt: '',
    encryptedKeys: { a: 'k', b: 'k' },
  };
  const verdictAt = async (log: KeyLogEntry[], at: string) =>
    legacyOnlyBeforeSignedLog(log, at, await checkMessageSignature(log, at, message, undefined));

  it('keeps an unsigned message stored before the first signed entry as history, and fails one after it', async () => {
    const log = await signedLog();
    // Before the first signing key: history by the old rule, and before the signed entry.
    expect(await verdictAt(log, '2026-02-01T00:00:00.000Z')).toEqual({ status: 'legacy' });
    // After the signed entry: every browser of the account signs by then, so unsigned is a forgery.
    expect(await verdictAt(log, '2026-03-02T00:00:00.000Z')).toEqual({
      status: 'failed',
      reason: 'unsigned',
    });
  });

  it('counts nothing as history against a log without a signed entry, or at a time that is not one', async () => {
    const [registered] = await signedLog();
    expect(await verdictAt([registered!], '2026-02-01T00:00:00.000Z')).toEqual({
      status: 'failed',
      reason: 'unsigned',
    });
    expect(await verdictAt([], '2026-02-01T00:00:00.000Z')).toEqual({ status: 'failed', reason: 'unsigned' });
    expect(await verdictAt(await signedLog(), 'not a time')).toEqual({
      status: 'failed',
      reason: 'unsigned',
    });
  });
});
