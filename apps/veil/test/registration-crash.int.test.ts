import { afterEach, describe, expect, it } from 'vitest';
import { authRpc, userRpc } from '@veil/contracts';
import { exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { rpcClient } from '@veil/kernel';
import { createApi } from './support/api-client.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { registerForm, uniqueName } from './support/users.ts';

/**
 * Registration is two steps in two services (the username claim and profile, then the
 * password). Here the process stops between them, as a crash would: after a restart the
 * abandoned claim is found, the registration undone and the name free again, and the late
 * password step is refused rather than bringing a half-undone account back.
 */
describe('a registration cut short between its two steps', () => {
  let veil: TestVeil;
  afterEach(() => veil?.destroy());

  it('is undone after the timeout, its username freed, and nothing else is touched', async () => {
    veil = await startTestVeil({ env: { REGISTRATION_TIMEOUT_SECONDS: '1' } });
    const publicKey = await exportPublicKeySpkiBase64((await generateUserKeyPair()).publicKey);
    const username = uniqueName('crash');
    const password = 'correct horse battery';

    // A whole registration, for contrast: it must survive every sweep.
    const whole = uniqueName('whole');
    const api0 = createApi(veil.url);
    expect(
      (
        await api0.call('POST', '/api/v1/user/register', {
          form: registerForm({ username: whole, password, publicKey }),
        })
      ).status,
    ).toBe(201);

    // The gateway's first step, then the process goes away before the second.
    const { user } = await rpcClient(veil.ports.rpc, userRpc).register({
      username,
      publicKey,
      pictureKey: null,
    });
    veil = await veil.restart();
    const api = createApi(veil.url);
    const register = () =>
      api.call('POST', '/api/v1/user/register', { form: registerForm({ username, password, publicKey }) });
    expect((await register()).status).toBe(409);

    await expect.poll(async () => (await register()).status, { timeout: 10_000, interval: 250 }).toBe(201);
    expect((await api.post('/api/v1/user/login', { username, password })).status).toBe(200);
    // The first attempt's account is gone, and its password step, arriving late, is refused.
    await expect(rpcClient(veil.ports.rpc, userRpc).get({ userId: user._id })).rejects.toMatchObject({
      code: 'USER_NOT_FOUND',
    });
    await expect(
      rpcClient(veil.ports.rpc, authRpc).registerCredentials({ userId: user._id, username, password }),
    ).rejects.toMatchObject({ code: 'UNAVAILABLE' });

    expect((await api.post('/api/v1/user/login', { username: whole, password })).status).toBe(200);
  });
});
