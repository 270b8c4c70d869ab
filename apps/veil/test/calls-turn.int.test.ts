import { createHmac } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/index.ts';
import { createApi } from './support/api-client.ts';
import { createUser } from './support/users.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';

const secret = 'a shared secret of some length';

describe('GET /api/v1/calls/turn', () => {
  let veil: TestVeil | undefined;
  afterEach(async () => {
    await veil?.destroy();
    veil = undefined;
  });

  it('answers no servers without TURN configured, and only to a signed-in user', async () => {
    veil = await startTestVeil();
    const api = createApi(veil.url);
    const user = await createUser(api, 'noturn');
    expect((await api.call('GET', '/api/v1/calls/turn')).status).toBe(401);
    const answer = await api.call('GET', '/api/v1/calls/turn', { token: user.accessToken });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ iceServers: [], iceTransportPolicy: 'all', ttlSeconds: 0 });
  });

  it('hands out TURN REST credentials for the token’s user, then refuses a flood with 429', async () => {
    veil = await startTestVeil({
      env: {
        TURN_URLS: 'stun:turn.example.org:3478,turn:turn.example.org:3478,turns:turn.example.org:5349',
        TURN_SECRET: secret,
        TURN_CREDENTIAL_TTL_SECONDS: '120',
      },
    });
    const api = createApi(veil.url);
    const user = await createUser(api, 'turn');
    const { body } = await api.call('GET', '/api/v1/calls/turn', { token: user.accessToken });
    const [stun, relay] = body.data.iceServers;
    expect(stun).toEqual({ urls: ['stun:turn.example.org:3478'] });
    expect(relay.urls).toEqual(['turn:turn.example.org:3478', 'turns:turn.example.org:5349']);
    const [expiry, userId] = relay.username.split(':');
    expect(userId).toBe(user._id);
    expect(Number(expiry) - Date.now() / 1000).toBeGreaterThan(100);
    expect(Number(expiry) - Date.now() / 1000).toBeLessThanOrEqual(120);
    expect(relay.credential).toBe(createHmac('sha1', secret).update(relay.username).digest('base64'));
    expect(body.data).toMatchObject({ iceTransportPolicy: 'all', ttlSeconds: 120 });

    const answers = [];
    for (let n = 0; n < 30; n++)
      answers.push((await api.call('GET', '/api/v1/calls/turn', { token: user.accessToken })).status);
    expect(answers.filter((status) => status === 429).length).toBeGreaterThan(0);
    const refused = await api.call('GET', '/api/v1/calls/turn', { token: user.accessToken });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body).toMatchObject({ success: false, code: 'RATE_LIMITED' });
  });

  it('refuses a TURN configuration that cannot work, naming the variable', () => {
    expect(() => loadConfig({ TURN_URLS: 'turn:turn.example.org:3478' })).toThrow(/TURN_SECRET/);
    expect(() => loadConfig({ TURN_URLS: 'http://turn.example.org', TURN_SECRET: secret })).toThrow(
      /TURN_URLS/,
    );
    expect(() => loadConfig({ TURN_URLS: 'stun:stun.example.org', TURN_RELAY_ONLY: 'true' })).toThrow(
      /TURN_RELAY_ONLY/,
    );
    expect(() => loadConfig({ TURN_URLS: 'turn:t.example.org', TURN_SECRET: 'short' })).toThrow(
      /TURN_SECRET/,
    );
    expect(loadConfig({ TURN_URLS: 'stun:stun.example.org' }).TURN_URLS).toEqual(['stun:stun.example.org']);
  });
});
