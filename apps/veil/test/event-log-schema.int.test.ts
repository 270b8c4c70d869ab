import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contexts, eventSchemasByContext, type Context } from '@veil/contracts';
import { buildGroupPayload } from '@veil/crypto';
import type { RecordedEvent } from '@veil/ports';
import { createApi, type Api } from './support/api-client.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { createUser, directMessage, registerForm } from './support/users.ts';

/**
 * Every event the services append, after a run through most commands (register, login, refresh
 * and its reuse, sends, a group, a rename, a password change, logout, changes to messages and to
 * a group, privacy), parses with its context's
 * schema in @veil/contracts: the log holds what its readers expect, in the context it belongs to.
 */
describe('the event log', () => {
  let veil: TestVeil;
  let api: Api;

  beforeAll(async () => {
    veil = await startTestVeil();
    api = createApi(veil.url);
  });
  afterAll(() => veil.destroy());

  /** The context's whole log, read with the same ordered follow the projections use. */
  const everyEvent = async (context: Context): Promise<RecordedEvent[]> => {
    const head = await veil.ports.bus.headPosition(context);
    const events: RecordedEvent[] = [];
    let done: () => void = () => {};
    const all = new Promise<void>((resolve) => (done = resolve));
    if (head === 0) done();
    const subscription = await veil.ports.bus.follow({
      context,
      afterPosition: 0,
      handler: async (recorded) => {
        events.push(recorded);
        if (recorded.position >= head) done();
      },
    });
    await all;
    await subscription.stop();
    return events;
  };

  it('holds only events its contracts describe, each in its own context', async () => {
    const [alice, bob, carol] = [
      await createUser(api, 'la'),
      await createUser(api, 'lb'),
      await createUser(api, 'lc'),
    ];
    const direct = await api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      {
        ...(await directMessage(alice, bob, 'hello')),
        clientMessageId: `log-${Date.now()}`,
      },
      alice.accessToken,
    );
    expect(direct.status).toBe(201);
    const group = await api.post(
      '/api/v1/chat/creategroupchat',
      { groupName: 'the log', participants: [bob._id, carol._id] },
      alice.accessToken,
    );
    expect(group.status).toBe(201);
    // Changes to a message, to a group, and to privacy.
    const messageId = direct.body.data.message._id as string;
    const keys = { [alice._id]: alice.keys.publicKey, [bob._id]: bob.keys.publicKey };
    const edit = await buildGroupPayload('hello again', keys);
    expect((await api.put(`/api/v1/message/${messageId}`, edit, alice.accessToken)).status).toBe(200);
    const reaction = await buildGroupPayload('👋', keys);
    const reacting = {
      encryptedReaction: reaction.encryptedMessage,
      iv: reaction.iv,
      encryptedKeys: reaction.encryptedKeys,
    };
    expect((await api.put(`/api/v1/message/${messageId}/reaction`, reacting, bob.accessToken)).status).toBe(
      200,
    );
    expect(
      (await api.call('DELETE', `/api/v1/message/${messageId}/reaction`, { token: bob.accessToken })).status,
    ).toBe(200);
    expect(
      (await api.call('DELETE', `/api/v1/message/${messageId}?for=me`, { token: bob.accessToken })).status,
    ).toBe(200);
    const regretted = await api.post(
      `/api/v1/message/sendIndividualMessage/${bob._id}`,
      await directMessage(alice, bob, 'oops'),
      alice.accessToken,
    );
    const regrettedId = regretted.body.data.message._id as string;
    expect(
      (await api.call('DELETE', `/api/v1/message/${regrettedId}?for=everyone`, { token: alice.accessToken }))
        .status,
    ).toBe(200);
    const groupId = group.body.data._id as string;
    const dave = await createUser(api, 'ld');
    expect(
      (await api.post(`/api/v1/chat/${groupId}/members`, { members: [dave._id] }, alice.accessToken)).status,
    ).toBe(200);
    expect(
      (await api.post(`/api/v1/chat/${groupId}/admins`, { userId: bob._id }, alice.accessToken)).status,
    ).toBe(200);
    expect(
      (await api.put(`/api/v1/chat/${groupId}/name`, { groupName: 'the log, renamed' }, bob.accessToken))
        .status,
    ).toBe(200);
    expect(
      (
        await api.call('PUT', `/api/v1/chat/${groupId}/picture`, {
          token: bob.accessToken,
          form: registerForm({}),
        })
      ).status,
    ).toBe(200);
    expect(
      (await api.call('DELETE', `/api/v1/chat/${groupId}/members/${dave._id}`, { token: bob.accessToken }))
        .status,
    ).toBe(200);
    expect((await api.post(`/api/v1/chat/${groupId}/leave`, {}, alice.accessToken)).status).toBe(200);
    const privacy = { readReceipts: false, typing: true, onlineVisibleTo: 'nobody' };
    expect((await api.put('/api/v1/user/privacy', privacy, dave.accessToken)).status).toBe(200);
    const renamed = await api.call('PUT', '/api/v1/user/updateProfile', {
      token: carol.accessToken,
      form: registerForm({ username: `${carol.username}x`.slice(0, 30) }),
    });
    expect(renamed.status).toBe(200);
    const refreshed = await api.post('/api/v1/user/refresh', { refreshtoken: bob.refreshToken });
    expect(refreshed.status).toBe(200);
    expect((await api.post('/api/v1/user/refresh', { refreshtoken: bob.refreshToken })).status).toBe(401);
    expect(
      (
        await api.put(
          '/api/v1/user/updatePassword',
          { currentPassword: alice.password, password: 'a-new-secret-here' },
          alice.accessToken,
        )
      ).status,
    ).toBe(200);
    expect((await api.post('/api/v1/user/logout', { refreshtoken: carol.refreshToken })).status).toBe(200);

    const seen = new Set<string>();
    for (const context of contexts) {
      for (const recorded of await everyEvent(context)) {
        const parsed = eventSchemasByContext[context].safeParse(recorded.event);
        expect(
          parsed.success,
          `${context} #${recorded.position} ${recorded.event.type}: ${parsed.error?.message}`,
        ).toBe(true);
        seen.add(`${context}:${recorded.event.type}`);
      }
    }
    // The run reached every context, and most kinds of event.
    expect([...seen].sort()).toEqual(
      expect.arrayContaining([
        'access:SessionRevoked',
        'auth:CredentialsRegistered',
        'auth:PasswordChanged',
        'auth:RefreshFamilyRevoked',
        'auth:RefreshTokenIssued',
        'chat:DirectChatCreated',
        'chat:GroupChatCreated',
        'chat:ChatMembersAdded',
        'chat:ChatAdminPromoted',
        'chat:GroupRenamed',
        'chat:GroupPictureChanged',
        'chat:ChatMemberRemoved',
        'chat:ChatMemberLeft',
        'message:MessageSent',
        'message:MessageEdited',
        'message:ReactionSet',
        'message:ReactionRemoved',
        'message:MessageHidden',
        'message:MessageDeleted',
        'user:PrivacyChanged',
        'user:UserRegistered',
        'user:UserRenamed',
        'user:UsernameClaimed',
        'user:UsernameReleased',
      ]),
    );
  });
});
