import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contexts, eventSchemasByContext } from '@veil/contracts';
import type { RecordedEvent } from '@veil/ports';
import { createApi, type Api } from './support/api-client.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { createUser, directMessage, registerForm } from './support/users.ts';

/**
 * Every event the services append, after a run through most commands (register, login, refresh
 * and its reuse, sends, a group, a rename, a password change, logout), parses with its context's
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
  const everyEvent = async (context: string): Promise<RecordedEvent[]> => {
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
    const renamed = await api.call('PUT', '/api/v1/user/updateProfile', {
      token: carol.accessToken,
      form: registerForm({ username: `${carol.username}x`.slice(0, 30) }),
    });
    expect(renamed.status).toBe(200);
    const refreshed = await api.post('/api/v1/user/refresh', { refreshtoken: bob.refreshToken });
    expect(refreshed.status).toBe(200);
    expect((await api.post('/api/v1/user/refresh', { refreshtoken: bob.refreshToken })).status).toBe(401);
    expect(
      (await api.put('/api/v1/user/updatePassword', { password: 'a-new-secret-here' }, alice.accessToken))
        .status,
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
        'message:MessageSent',
        'user:UserRegistered',
        'user:UserRenamed',
        'user:UsernameClaimed',
        'user:UsernameReleased',
      ]),
    );
  });
});
