import { describe, expect, it } from 'vitest';
import {
  groupChangeBody,
  signGroupChange,
  verifyGroupChain,
  type GroupChangeBody,
  type SignedGroupChange,
} from '@veil/crypto';
import { expectJsonError } from './support/json-errors.ts';
import { useTestVeil } from './support/test-veil.ts';
import { createGroup, createSigningUser } from './support/users.ts';

/**
 * Signed group changes over real HTTP, the client playing liar: the server refuses what it can
 * tell is wrong (an unsigned change to a signed group, a change in another's name, a non-admin's
 * add, a stale previous hash, another group's change) and serves the chain members verify.
 */
const running = useTestVeil();
type SigningUser = Awaited<ReturnType<typeof createSigningUser>>;
const signingUser = (base: string) => createSigningUser(running.api, base);
/** One after another: registrations hash passwords, and a burst of them can outlast the RPC timeout. */
const signingUsers = async (bases: string[]) => {
  const users: SigningUser[] = [];
  for (const base of bases) users.push(await signingUser(base));
  return users;
};
const signerOf = (user: SigningUser) => ({ userId: user._id, signingKey: user.signing.privateKey });

const changesOf = async (chatId: string, user: SigningUser): Promise<SignedGroupChange[]> => {
  const res = await running.api.get(`/api/v1/chat/${chatId}/changes`, user.accessToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.map((entry: { signedChange: SignedGroupChange | null }) => entry.signedChange);
};
const headOf = async (chatId: string, user: SigningUser) => (await changesOf(chatId, user)).at(-1)!;

/** A group created signed, as the browser creates it: its id chosen and signed by its creator. */
const signedGroup = async (creator: SigningUser, others: SigningUser[]) => {
  const chatId = `g${crypto.randomUUID().replaceAll('-', '')}`;
  const signedChange = await signGroupChange(
    chatId,
    null,
    { kind: 'created', memberIds: [creator._id, ...others.map((u) => u._id)], name: 'Ropes' },
    signerOf(creator),
  );
  const res = await running.api.post(
    '/api/v1/chat/creategroupchat',
    { groupName: 'Ropes', participants: others.map((u) => u._id), signedChange },
    creator.accessToken,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.data._id).toBe(chatId);
  return chatId;
};

const keysOf = (users: SigningUser[]) => {
  const keys = new Map(users.map((u) => [u._id, u.signingKey]));
  return (id: string) => keys.get(id) ?? null;
};

describe('signed group changes', () => {
  it('stores each signed change and serves a chain every member verifies', async () => {
    const [alice, bob, carol] = await signingUsers(['gsalice', 'gsbob', 'gscarol']);
    const chatId = await signedGroup(alice!, [bob!]);
    const add = await signGroupChange(
      chatId,
      await headOf(chatId, alice!),
      { kind: 'members-added', memberIds: [carol!._id] },
      signerOf(alice!),
    );
    const added = await running.api.post(
      `/api/v1/chat/${chatId}/members`,
      { members: [carol!._id], signedChange: add },
      alice!.accessToken,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const remove = await signGroupChange(
      chatId,
      add,
      { kind: 'member-removed', memberIds: [bob!._id] },
      signerOf(alice!),
    );
    const removed = await running.api.call('DELETE', `/api/v1/chat/${chatId}/members/${bob!._id}`, {
      json: { signedChange: remove },
      token: alice!.accessToken,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const chain = await changesOf(chatId, carol!);
    expect(chain.map((change) => change.kind)).toEqual(['created', 'members-added', 'member-removed']);
    const check = await verifyGroupChain(chain, keysOf([alice!, bob!, carol!]));
    expect(check.ok && check.state?.members).toEqual([alice!._id, carol!._id]);
    // Bob is out: the chain is for members only.
    expectJsonError(
      await running.api.get(`/api/v1/chat/${chatId}/changes`, bob!.accessToken),
      404,
      'CHAT_NOT_FOUND',
    );
  });

  it('refuses an unsigned change to a group whose state is signed', async () => {
    const [alice, bob, carol] = await signingUsers(['gsunalice', 'gsunbob', 'gsuncarol']);
    const chatId = await signedGroup(alice!, [bob!]);
    expectJsonError(
      await running.api.post(`/api/v1/chat/${chatId}/members`, { members: [carol!._id] }, alice!.accessToken),
      400,
      'GROUP_CHANGE_UNSIGNED',
    );
    expectJsonError(
      await running.api.put(`/api/v1/chat/${chatId}/disappearing`, { seconds: 0 + 300 }, bob!.accessToken),
      400,
      'GROUP_CHANGE_UNSIGNED',
    );
  });

  it("refuses a change signed in another member's name, or saying another change than the request", async () => {
    const [alice, bob, carol] = await signingUsers(['gsnmalice', 'gsnmbob', 'gsnmcarol']);
    const chatId = await signedGroup(alice!, [bob!]);
    const head = await headOf(chatId, alice!);
    // Bob sends Alice's genuinely signed change as his own request.
    const alicesTimer = await signGroupChange(
      chatId,
      head,
      { kind: 'timer-set', timerSeconds: 300 },
      signerOf(alice!),
    );
    expectJsonError(
      await running.api.put(
        `/api/v1/chat/${chatId}/disappearing`,
        { seconds: 300, signedChange: alicesTimer },
        bob!.accessToken,
      ),
      400,
      'GROUP_CHANGE_INVALID',
      /another member's name/,
    );
    const alicesAdd = await signGroupChange(
      chatId,
      head,
      { kind: 'members-added', memberIds: [carol!._id] },
      signerOf(alice!),
    );
    // Alice signs a rename but asks for an add.
    const rename = await signGroupChange(chatId, head, { kind: 'renamed', name: 'Other' }, signerOf(alice!));
    expectJsonError(
      await running.api.post(
        `/api/v1/chat/${chatId}/members`,
        { members: [carol!._id], signedChange: rename },
        alice!.accessToken,
      ),
      400,
      'GROUP_CHANGE_INVALID',
    );
    // A field changed after signing: the hash no longer holds.
    expectJsonError(
      await running.api.post(
        `/api/v1/chat/${chatId}/members`,
        { members: [bob!._id], signedChange: { ...alicesAdd, memberIds: [bob!._id] } },
        alice!.accessToken,
      ),
      400,
    );
  });

  it("refuses a non-admin's signed add", async () => {
    const [alice, bob, carol] = await signingUsers(['gsnaalice', 'gsnabob', 'gsnacarol']);
    const chatId = await signedGroup(alice!, [bob!]);
    const add = await signGroupChange(
      chatId,
      await headOf(chatId, bob!),
      { kind: 'members-added', memberIds: [carol!._id] },
      signerOf(bob!),
    );
    expectJsonError(
      await running.api.post(
        `/api/v1/chat/${chatId}/members`,
        { members: [carol!._id], signedChange: add },
        bob!.accessToken,
      ),
      403,
      'FORBIDDEN',
    );
  });

  it('refuses a change naming a stale previous state, or another group', async () => {
    const [alice, bob] = await signingUsers(['gsstalice', 'gsstbob']);
    const chatId = await signedGroup(alice!, [bob!]);
    const otherId = await signedGroup(alice!, [bob!]);
    const created = await headOf(chatId, alice!);
    const renamed = await signGroupChange(
      chatId,
      created,
      { kind: 'renamed', name: 'First' },
      signerOf(alice!),
    );
    const first = await running.api.put(
      `/api/v1/chat/${chatId}/name`,
      { groupName: 'First', signedChange: renamed },
      alice!.accessToken,
    );
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // Signed on the state before the rename: it would drop the rename from the chain.
    const stale = await signGroupChange(
      chatId,
      created,
      { kind: 'timer-set', timerSeconds: 300 },
      signerOf(bob!),
    );
    expectJsonError(
      await running.api.put(
        `/api/v1/chat/${chatId}/disappearing`,
        { seconds: 300, signedChange: stale },
        bob!.accessToken,
      ),
      409,
      'GROUP_CHANGE_NOT_HEAD',
    );
    // Another group's change, replayed here.
    const elsewhere = await signGroupChange(
      otherId,
      await headOf(otherId, bob!),
      { kind: 'timer-set', timerSeconds: 300 },
      signerOf(bob!),
    );
    expectJsonError(
      await running.api.put(
        `/api/v1/chat/${chatId}/disappearing`,
        { seconds: 300, signedChange: elsewhere },
        bob!.accessToken,
      ),
      400,
      'GROUP_CHANGE_INVALID',
      /another group/,
    );
  });

  it('lets an admin sign the state of a group created unsigned, once, and then requires signatures', async () => {
    const [alice, bob, carol] = await signingUsers(['gssnalice', 'gssnbob', 'gssncarol']);
    const chatId = await createGroup(running.api, alice!, 'Old', [bob!]);
    // The seed contract's unsigned calls keep working on a group whose state is not signed.
    const unsigned = await running.api.put(
      `/api/v1/chat/${chatId}/name`,
      { groupName: 'Older' },
      alice!.accessToken,
    );
    expect(unsigned.status, JSON.stringify(unsigned.body)).toBe(200);
    expect((await changesOf(chatId, bob!)).every((change) => change === null)).toBe(true);

    const snapshotBody = (name: string): GroupChangeBody =>
      groupChangeBody({
        kind: 'snapshot',
        memberIds: [alice!._id, bob!._id],
        adminIds: [alice!._id],
        name,
        timerSeconds: 0,
      });
    const bobs = await signGroupChange(chatId, null, snapshotBody('Older'), signerOf(bob!));
    expectJsonError(
      await running.api.post(
        `/api/v1/chat/${chatId}/changes/snapshot`,
        { signedChange: bobs },
        bob!.accessToken,
      ),
      403,
      'FORBIDDEN',
    );
    const wrong = await signGroupChange(chatId, null, snapshotBody('Renamed in secret'), signerOf(alice!));
    expectJsonError(
      await running.api.post(
        `/api/v1/chat/${chatId}/changes/snapshot`,
        { signedChange: wrong },
        alice!.accessToken,
      ),
      400,
      'GROUP_CHANGE_INVALID',
    );
    const snapshot = await signGroupChange(chatId, null, snapshotBody('Older'), signerOf(alice!));
    const signed = await running.api.post(
      `/api/v1/chat/${chatId}/changes/snapshot`,
      { signedChange: snapshot },
      alice!.accessToken,
    );
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expectJsonError(
      await running.api.post(
        `/api/v1/chat/${chatId}/changes/snapshot`,
        { signedChange: snapshot },
        alice!.accessToken,
      ),
      409,
      'GROUP_CHANGE_NOT_HEAD',
    );
    expectJsonError(
      await running.api.post(`/api/v1/chat/${chatId}/members`, { members: [carol!._id] }, alice!.accessToken),
      400,
      'GROUP_CHANGE_UNSIGNED',
    );
    const served = (await changesOf(chatId, bob!)).filter((change) => change !== null);
    const check = await verifyGroupChain(served, keysOf([alice!, bob!]));
    expect(check.ok && check.state?.name).toBe('Older');
  });
});
