import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ChatView } from '@veil/contracts';
import type { StartVeilOptions } from '../../src/index.ts';
import { createApi, type Api } from '../support/api-client.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createGroup, createSigningUser, sendDirect, type TestUser } from '../support/users.ts';

/**
 * Archived and pinned chats: one account's own list, kept on the server (so every browser of
 * the account shows the same), never another's; a new message brings an archived chat back;
 * five pins at most.
 */
export const chatPrefsSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let mallory: TestUser;
  let directId: string;
  const call = (method: 'PUT' | 'DELETE', user: TestUser, chatId: string, what: 'archive' | 'pin') =>
    api.call(method, `/api/v1/chat/${chatId}/${what}`, { token: user.accessToken });
  const listOf = async (user: TestUser) =>
    (await api.get('/api/v1/chat/getallchats', user.accessToken)).body.data as ChatView[];
  const chatIn = async (user: TestUser, chatId: string) =>
    (await listOf(user)).find((c) => c._id === chatId)!;

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    [alice, bob, mallory] = await Promise.all([
      createSigningUser(api, 'ka'),
      createSigningUser(api, 'kb'),
      createSigningUser(api, 'km'),
    ]);
    directId = (await sendDirect(api, bob, alice, 'hello')).body.data.chat._id as string;
  });
  afterAll(async () => {
    await veil.destroy();
  });

  it('archives a chat for its owner only, until a new message brings it back', async () => {
    const archived = await call('PUT', alice, directId, 'archive');
    expect(archived.status).toBe(200);
    expect(archived.body.data).toMatchObject({ _id: directId, archived: true });
    expect(await chatIn(alice, directId)).toMatchObject({ archived: true, archivedAt: expect.any(String) });
    expect(await chatIn(bob, directId)).not.toHaveProperty('archived');

    expect((await sendDirect(api, bob, alice, 'are you there?')).status).toBe(201);
    // Still marked archived (a muted chat's browser keeps it there), but back in the list.
    expect(await chatIn(alice, directId)).toMatchObject({ archived: false, archivedAt: expect.any(String) });
    const unarchived = await call('DELETE', alice, directId, 'archive');
    expect(unarchived.body.data).not.toHaveProperty('archivedAt');
  });

  it('pins at most five chats, refusing the sixth with a clear message', async () => {
    const groups: string[] = [];
    for (let i = 0; i < 5; i++) groups.push(await createGroup(api, alice, `pins ${i}`, [bob]));
    for (const chatId of groups) expect((await call('PUT', alice, chatId, 'pin')).status).toBe(200);
    const sixth = await call('PUT', alice, directId, 'pin');
    expect(sixth.status).toBe(409);
    expect(sixth.body).toEqual({
      success: false,
      code: 'PIN_LIMIT_REACHED',
      message: 'You can pin up to 5 chats. Unpin one first.',
    });
    expect(
      (await listOf(alice))
        .filter((c) => c.pinnedAt)
        .map((c) => c._id)
        .sort(),
    ).toEqual([...groups].sort());
    expect((await listOf(bob)).some((c) => c.pinnedAt)).toBe(false);
    // Unpinning one frees its place; archiving a pinned chat unpins it.
    expect((await call('DELETE', alice, groups[0]!, 'pin')).body.data).not.toHaveProperty('pinnedAt');
    expect((await call('PUT', alice, directId, 'pin')).body.data).toHaveProperty('pinnedAt');
    const archivedPinned = await call('PUT', alice, directId, 'archive');
    expect(archivedPinned.body.data).toMatchObject({ archived: true });
    expect(archivedPinned.body.data).not.toHaveProperty('pinnedAt');
  });

  it('keeps no one’s list but the token’s: a chat one is not in is not found', async () => {
    for (const what of ['archive', 'pin'] as const) {
      const res = await call('PUT', mallory, directId, what);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, code: 'CHAT_NOT_FOUND' });
    }
    expect((await call('PUT', alice, 'not.an.id', 'pin')).status).toBe(400);
    expect((await chatIn(bob, directId)).archived).toBeUndefined();
  });
};
