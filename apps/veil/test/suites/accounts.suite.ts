import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { io } from 'socket.io-client';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartVeilOptions } from '../../src/index.ts';
import { exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';
import { createAccessTokenSigner } from '@veil/tokens';
import { createApi, type Api } from '../support/api-client.ts';
import { makePng, pngSize } from '../support/images.ts';
import { expectJsonError } from '../support/json-errors.ts';
import { startTestVeil, type TestVeil } from '../support/test-veil.ts';
import { createUser, registerForm, uniqueName } from '../support/users.ts';

/** The accounts API (docs/api.md) over real HTTP; run against the embedded app and the NATS + Redis one. */
export const accountsSuite = (options: Partial<StartVeilOptions> = {}) => {
  let veil: TestVeil;
  let api: Api;
  let publicKey: string;

  const listBlobs = async (dir: string): Promise<string[]> => {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  };

  beforeAll(async () => {
    veil = await startTestVeil(options);
    api = createApi(veil.url);
    publicKey = await exportPublicKeySpkiBase64((await generateUserKeyPair()).publicKey);
  });
  afterAll(() => veil.destroy());

  describe('register', () => {
    it('registers with a picture and serves it under a stable URL', async () => {
      const username = uniqueName('pic');
      const png = makePng(16, 16);
      const res = await api.call('POST', '/api/v1/user/register', {
        form: registerForm(
          { username, password: 'password123', publicKey },
          { bytes: png, name: 'me.png', type: 'image/png' },
        ),
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const picture: string = res.body.data.user.profilePicture;
      expect(picture).toMatch(/^\/api\/v1\/media\/avatars\/[0-9A-Z]+\.png$/);
      const served = await fetch(`${veil.url}${picture}`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/png');
      // Stored decoded and encoded again: the same picture, not the same bytes.
      const stored = Buffer.from(await served.arrayBuffer());
      expect(stored.subarray(1, 4).toString('latin1')).toBe('PNG');
      expect(pngSize(stored)).toEqual({ width: 16, height: 16 });
    });

    it("keeps none of a picture's metadata: text chunks, EXIF camera and position", async () => {
      const secret = `taken at 48.8584N 2.2945E ${Date.now()}`;
      const png = makePng(8, 8, true, secret);
      const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
        .jpeg()
        .withExif({ IFD0: { Make: 'SpyCam', Model: secret, Copyright: secret } })
        .toBuffer();
      expect(jpeg.includes(secret)).toBe(true);
      for (const [bytes, type] of [
        [png, 'image/png'],
        [jpeg, 'image/jpeg'],
      ] as const) {
        const res = await api.call('POST', '/api/v1/user/register', {
          form: registerForm(
            { username: uniqueName('meta'), password: 'password123', publicKey },
            { bytes, name: 'me', type },
          ),
        });
        expect(res.status).toBe(201);
        const served = Buffer.from(
          await (await fetch(`${veil.url}${res.body.data.user.profilePicture}`)).arrayBuffer(),
        );
        expect(served.length).toBeGreaterThan(0);
        expect(served.includes(secret)).toBe(false);
        expect(served.includes('SpyCam')).toBe(false);
      }
    });

    it('refuses a duplicate username, whatever its case', async () => {
      const username = uniqueName('dup');
      const first = await api.call('POST', '/api/v1/user/register', {
        form: registerForm({ username, password: 'password123', publicKey }),
      });
      expect(first.status).toBe(201);
      const second = await api.call('POST', '/api/v1/user/register', {
        form: registerForm({ username: username.toUpperCase(), password: 'password123', publicKey }),
      });
      expect(second.status).toBe(409);
      expect(second.body).toEqual({
        success: false,
        message: 'Username is already taken',
        code: 'USERNAME_TAKEN',
      });
    });

    it('gives exactly one winner when many register the same name at once', async () => {
      const username = uniqueName('race');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          api.call('POST', '/api/v1/user/register', {
            form: registerForm({
              username: i % 2 ? username : username.toUpperCase(),
              password: 'password123',
              publicKey,
            }),
          }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(7);
      const found = await api.get(`/api/v1/user/searchuser?username=${username}`);
      expect(found.body.data).toHaveLength(1);
    });

    it('refuses a non-image upload by its bytes, whatever its name, and keeps no blob', async () => {
      const before = await listBlobs(path.join(veil.dataDir, 'blobs'));
      const res = await api.call('POST', '/api/v1/user/register', {
        form: registerForm(
          { username: uniqueName('fake'), password: 'password123', publicKey },
          {
            bytes: new TextEncoder().encode('<script>alert(1)</script>'),
            name: 'cat.png',
            type: 'image/png',
          },
        ),
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ success: false, message: 'Please upload a valid image file.' });
      expect(await listBlobs(path.join(veil.dataDir, 'blobs'))).toEqual(before);
    });

    it('refuses images over the pixel cap and files over the size cap', async () => {
      const bomb = await api.call('POST', '/api/v1/user/register', {
        form: registerForm(
          { username: uniqueName('bomb'), password: 'password123', publicKey },
          { bytes: makePng(20_000, 20_000, false), name: 'a.png', type: 'image/png' },
        ),
      });
      expect(bomb.status).toBe(400);
      const huge = await api.call('POST', '/api/v1/user/register', {
        form: registerForm(
          { username: uniqueName('huge'), password: 'password123', publicKey },
          { bytes: new Uint8Array(3 * 1024 * 1024), name: 'a.png', type: 'image/png' },
        ),
      });
      expect(huge.status).toBe(413);
    });

    it('keeps no blob when the username is taken after the picture was stored', async () => {
      const taken = await createUser(api, 'taken');
      const before = await listBlobs(path.join(veil.dataDir, 'blobs'));
      const res = await api.call('POST', '/api/v1/user/register', {
        form: registerForm(
          { username: taken.username, password: 'password123', publicKey },
          { bytes: makePng(4, 4), name: 'a.png', type: 'image/png' },
        ),
      });
      expect(res.status).toBe(409);
      expect(await listBlobs(path.join(veil.dataDir, 'blobs'))).toEqual(before);
    });

    it('validates username rules, password length and the public key', async () => {
      const bad = async (fields: Record<string, string>) =>
        (await api.call('POST', '/api/v1/user/register', { form: registerForm(fields) })).body.message;
      expect(await bad({ password: 'password123', publicKey })).toBe('Username is required');
      expect(await bad({ username: uniqueName(), publicKey })).toBe('Password is required');
      expect(await bad({ username: 'a b', password: 'password123', publicKey })).toMatch(/^Username must be/);
      expect(await bad({ username: uniqueName(), password: 'short', publicKey })).toMatch(/at least 8/);
      expect(
        await bad({ username: uniqueName(), password: 'password123', publicKey: 'bm90IGEga2V5' }),
      ).toMatch(/publicKey/);
    });
  });

  describe('login, tokens and the profile', () => {
    it('logs in with the documented shape and never leaks secrets in user objects', async () => {
      const user = await createUser(api, 'shape');
      const res = await api.post('/api/v1/user/login', { username: user.username, password: user.password });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data.user).sort()).toEqual(['accesstoken', 'loggedUser', 'refreshtoken']);
      expect(res.body.data.user.loggedUser).toEqual({
        _id: user._id,
        username: user.username,
        profilePicture: null,
      });
      const all = await api.get('/api/v1/user/getallusers');
      const text = JSON.stringify(all.body);
      expect(text).not.toMatch(/scrypt|password|token|publicKey/i);
      for (const u of all.body.data)
        expect(Object.keys(u).sort()).toEqual(['_id', 'profilePicture', 'username']);
    });

    it('refuses a wrong password and an unknown user alike', async () => {
      const user = await createUser(api, 'wrong');
      const wrong = await api.post('/api/v1/user/login', { username: user.username, password: 'nope-nope' });
      const unknown = await api.post('/api/v1/user/login', {
        username: uniqueName('ghost'),
        password: 'nope-nope',
      });
      expect(wrong.status).toBe(401);
      expect(unknown.status).toBe(401);
      expect(wrong.body.message).toBe(unknown.body.message);
    });

    it('throttles repeated failures for one username', async () => {
      const user = await createUser(api, 'throttle');
      let last = 0;
      for (let i = 0; i < 11; i++)
        last = (await api.post('/api/v1/user/login', { username: user.username, password: 'bad-pass' }))
          .status;
      expect(last).toBe(429);
      const right = await api.post('/api/v1/user/login', {
        username: user.username,
        password: user.password,
      });
      expect(right.status).toBe(429);
    });

    it('requires a valid bearer token', async () => {
      expect((await api.get('/api/v1/user/getuser')).status).toBe(401);
      expect((await api.get('/api/v1/user/getuser', 'not-a-jwt')).status).toBe(401);
      const user = await createUser(api, 'bearer');
      const me = await api.get('/api/v1/user/getuser', user.accessToken);
      expect(me.body.data).toEqual({ _id: user._id, username: user.username, profilePicture: null });
    });

    it('answers 401 to an expired access token, and refresh gets a working one', async () => {
      const user = await createUser(api, 'expired');
      const keys = JSON.parse(
        await readFile(path.join(veil.dataDir, 'keys', 'access-token.jwk.json'), 'utf8'),
      );
      const sign = await createAccessTokenSigner(keys.privateJwk, 60);
      const { token } = await sign(user._id, 'test-session', new Date(Date.now() - 3600_000));
      const res = await api.get('/api/v1/user/getuser', token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, code: 'TOKEN_EXPIRED' });
      const refreshed = await api.post('/api/v1/user/refresh', { refreshtoken: user.refreshToken });
      expect(refreshed.status).toBe(200);
      expect((await api.get('/api/v1/user/getuser', refreshed.body.data.accesstoken)).status).toBe(200);
    });

    it('rotates refresh tokens and revokes the family when an old one is reused', async () => {
      const user = await createUser(api, 'rotate');
      const first = await api.post('/api/v1/user/refresh', { refreshtoken: user.refreshToken });
      expect(first.status).toBe(200);
      const rotated = first.body.data.refreshtoken;
      expect(rotated).not.toBe(user.refreshToken);
      const reused = await api.post('/api/v1/user/refresh', { refreshtoken: user.refreshToken });
      expect(reused.status).toBe(401);
      expect(reused.body.code).toBe('TOKEN_REUSED');
      // The thief's reuse also kills the legitimate holder's newer token.
      expect((await api.post('/api/v1/user/refresh', { refreshtoken: rotated })).status).toBe(401);
    });

    it('lets one of two simultaneous refreshes with the same token win', async () => {
      const user = await createUser(api, 'twice');
      const both = await Promise.all(
        [0, 1].map(() => api.post('/api/v1/user/refresh', { refreshtoken: user.refreshToken })),
      );
      expect(both.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    });

    it('searches case-insensitively by substring and serves public keys', async () => {
      const user = await createUser(api, 'FindMe');
      const res = await api.get(
        `/api/v1/user/searchuser?username=${encodeURIComponent(user.username.slice(2, 8).toUpperCase())}`,
      );
      expect(res.body.data.map((u: { _id: string }) => u._id)).toContain(user._id);
      const key = await api.get(`/api/v1/user/publicKey/${user._id}`);
      expect(key.body.data.publicKey).toBe(user.publicKey);
      expect((await api.get('/api/v1/user/publicKey/01NOSUCHUSER')).status).toBe(404);
    });

    it('updates the profile (rename, picture) and frees the old name', async () => {
      const user = await createUser(api, 'rename');
      const newName = uniqueName('renamed');
      const form = registerForm(
        { username: newName },
        { bytes: makePng(8, 8), name: 'p.png', type: 'image/png' },
      );
      const res = await api.call('PUT', '/api/v1/user/updateProfile', { token: user.accessToken, form });
      expect(res.status).toBe(200);
      expect(res.body.data.username).toBe(newName);
      expect(res.body.data.profilePicture).toMatch(/avatars/);
      const login = await api.post('/api/v1/user/login', { username: newName, password: user.password });
      expect(login.status).toBe(200);
      const reuse = await api.call('POST', '/api/v1/user/register', {
        form: registerForm({ username: user.username, password: 'password123', publicKey }),
      });
      expect(reuse.status).toBe(201);
    });

    it('renames racing for one name: exactly one wins', async () => {
      const users = await Promise.all([1, 2, 3, 4].map(() => createUser(api, 'racer')));
      const target = uniqueName('prize');
      const results = await Promise.all(
        users.map((u) =>
          api.call('PUT', '/api/v1/user/updateProfile', {
            token: u.accessToken,
            form: registerForm({ username: target }),
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    });

    it('ends a session at logout and every session at a password change: its access tokens stop working at once, its sockets close', async () => {
      const user = await createUser(api, 'revoke');
      const login = async () =>
        (await api.post('/api/v1/user/login', { username: user.username, password: user.password })).body.data
          .user as { accesstoken: string; refreshtoken: string };
      const [laptop, phone] = [await login(), await login()];
      const socket = io(veil.url, {
        transports: ['websocket'],
        auth: { token: laptop.accesstoken },
        extraHeaders: { origin: veil.url },
        reconnection: false,
      });
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('connect_error', reject);
      });
      const told = new Promise<unknown>((resolve) => socket.once('error', resolve));
      const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
      const status = async (token: string) => (await api.get('/api/v1/user/getuser', token)).body;

      expect((await api.post('/api/v1/user/logout', { refreshtoken: laptop.refreshtoken })).status).toBe(200);
      await expect
        .poll(() => status(laptop.accesstoken), { timeout: 5_000 })
        .toMatchObject({
          success: false,
          code: 'TOKEN_REVOKED',
        });
      expect(await told).toMatchObject({ code: 'TOKEN_REVOKED' });
      expect(await closed).toBe('io server disconnect');
      // The other session is untouched by a logout elsewhere...
      expect(await status(phone.accesstoken)).toMatchObject({ success: true });
      // ...and ends with a password change.
      const changed = await api.put(
        '/api/v1/user/updatePassword',
        { currentPassword: user.password, password: 'another-new-secret' },
        phone.accesstoken,
      );
      expect(changed.status).toBe(200);
      await expect
        .poll(() => status(phone.accesstoken), { timeout: 5_000 })
        .toMatchObject({
          code: 'TOKEN_REVOKED',
        });
      socket.close();
    });

    it('refuses a password change without the current password or with a wrong one, and changes nothing', async () => {
      const user = await createUser(api, 'pwno');
      const change = (body: unknown) => api.put('/api/v1/user/updatePassword', body, user.accessToken);
      // The seed contract's body alone, as an unattended browser's session would send it.
      expectJsonError(
        await change({ password: 'taken-over-secret' }),
        400,
        'VALIDATION_FAILED',
        /currentPassword/,
      );
      expectJsonError(
        await change({ currentPassword: '', password: 'taken-over-secret' }),
        400,
        'VALIDATION_FAILED',
      );
      expectJsonError(
        await change({ currentPassword: 'a guessed password', password: 'taken-over-secret' }),
        403,
        'WRONG_PASSWORD',
        /current password is wrong/,
      );
      expectJsonError(
        await change({ currentPassword: 42, password: 'taken-over-secret' }),
        400,
        'VALIDATION_FAILED',
      );
      // Nothing changed: the old password logs in, the new one does not, the session lives on.
      const login = (password: string) =>
        api.post('/api/v1/user/login', { username: user.username, password });
      expect((await login('taken-over-secret')).status).toBe(401);
      expect((await login(user.password)).status).toBe(200);
      expect((await api.get('/api/v1/user/getuser', user.accessToken)).status).toBe(200);
      expect((await api.post('/api/v1/user/refresh', { refreshtoken: user.refreshToken })).status).toBe(200);
    });

    it('changes the password, revoking refresh tokens, and logs in with the new one', async () => {
      const user = await createUser(api, 'pw');
      const res = await api.put(
        '/api/v1/user/updatePassword',
        { currentPassword: user.password, password: 'a-brand-new-secret' },
        user.accessToken,
      );
      expect(res.status).toBe(200);
      expect(
        (await api.post('/api/v1/user/login', { username: user.username, password: user.password })).status,
      ).toBe(401);
      expect(
        (await api.post('/api/v1/user/login', { username: user.username, password: 'a-brand-new-secret' }))
          .status,
      ).toBe(200);
      expect((await api.post('/api/v1/user/refresh', { refreshtoken: user.refreshToken })).status).toBe(401);
    });
  });
};
