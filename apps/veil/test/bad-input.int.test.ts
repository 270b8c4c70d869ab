import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApi, type Api } from './support/api-client.ts';
import { makePng } from './support/images.ts';
import { startTestVeil, type TestVeil } from './support/test-veil.ts';
import { createUser, type TestUser } from './support/users.ts';

/**
 * Bodies a careless or hostile client sends: every one gets a clear 4xx JSON answer, never a
 * 500, and stores nothing.
 */
const boundary = 'veilboundary1234';
const crlf = '\r\n';
const field = (name: string, value: string) =>
  `--${boundary}${crlf}Content-Disposition: form-data; name="${name}"${crlf}${crlf}${value}${crlf}`;
const filePart = (name: string, bytes: string) =>
  `--${boundary}${crlf}Content-Disposition: form-data; name="${name}"; filename="a.png"${crlf}` +
  `Content-Type: image/png${crlf}${crlf}${bytes}${crlf}`;
const end = `--${boundary}--${crlf}`;
const multipart = `multipart/form-data; boundary=${boundary}`;
const png = makePng(4, 4).toString('latin1');

const malformedForms = (fields: string): [string, { body: string; contentType: string }][] => [
  ['no boundary in the content type', { body: fields + end, contentType: 'multipart/form-data' }],
  ['an empty boundary', { body: fields + end, contentType: 'multipart/form-data; boundary=""' }],
  [
    'a boundary the body never uses',
    { body: fields + end, contentType: `multipart/form-data; boundary=other` },
  ],
  ['an empty body', { body: '', contentType: multipart }],
  ['only a preamble', { body: 'hello there', contentType: multipart }],
  ['no closing boundary', { body: fields, contentType: multipart }],
  [
    'cut inside a part header',
    { body: `${fields}--${boundary}${crlf}Content-Dispo`, contentType: multipart },
  ],
  [
    'cut inside a field value',
    {
      body: `${fields}--${boundary}${crlf}Content-Disposition: form-data; name="x"${crlf}${crlf}abc`,
      contentType: multipart,
    },
  ],
  [
    'cut inside the picture',
    { body: fields + filePart('profilePicture', png).slice(0, 120), contentType: multipart },
  ],
  [
    'a header line without a colon',
    { body: `${fields}--${boundary}${crlf}garbage line${crlf}${crlf}v${crlf}${end}`, contentType: multipart },
  ],
  [
    'a part header past the parser limit',
    {
      body: `${fields}--${boundary}${crlf}X-Long: ${'a'.repeat(90_000)}${crlf}${crlf}v${crlf}${end}`,
      contentType: multipart,
    },
  ],
  [
    'two pictures',
    {
      body: fields + filePart('profilePicture', png) + filePart('profilePicture', png) + end,
      contentType: multipart,
    },
  ],
  ['a picture under another name', { body: fields + filePart('avatar', png) + end, contentType: multipart }],
  [
    'too many parts',
    {
      body: fields + Array.from({ length: 20 }, (_, n) => field(`f${n}`, 'x')).join('') + end,
      contentType: multipart,
    },
  ],
  [
    'a field past its size limit',
    { body: fields + field('bio', 'x'.repeat(70 * 1024)) + end, contentType: multipart },
  ],
  [
    'a picture that is not an image',
    { body: fields + filePart('profilePicture', 'not an image at all') + end, contentType: multipart },
  ],
  [
    'bytes that are not text',
    { body: `--${boundary}${crlf}\u0000\u00ff\u00fe${crlf}${end}`, contentType: multipart },
  ],
  ['multipart/mixed', { body: fields + end, contentType: `multipart/mixed; boundary=${boundary}` }],
  ['a lone closing boundary', { body: end, contentType: multipart }],
];

describe('malformed multipart bodies', () => {
  let veil: TestVeil;
  let api: Api;
  let user: TestUser;

  beforeAll(async () => {
    veil = await startTestVeil();
    api = createApi(veil.url);
    user = await createUser(api, 'form');
  });
  afterAll(() => veil.destroy());

  const expectClearRefusal = (res: { status: number; body: unknown }, what: string) => {
    expect(res.status, what).toBeGreaterThanOrEqual(400);
    expect(res.status, what).toBeLessThan(500);
    expect(res.body, what).toEqual({ success: false, message: expect.any(String), code: expect.any(String) });
  };

  it('refuses each one on register with a clear 4xx, and registers nobody', async () => {
    const username = `formcase${Date.now().toString(36)}`;
    const fields =
      field('username', username) +
      field('password', 'correct horse battery') +
      field('publicKey', user.publicKey);
    for (const [what, raw] of malformedForms(fields)) {
      expectClearRefusal(await api.call('POST', '/api/v1/user/register', { raw }), what);
    }
    const login = await api.post('/api/v1/user/login', { username, password: 'correct horse battery' });
    expect(login.status).toBe(401);
  });

  it('refuses each one on updateProfile with a clear 4xx, and changes nothing', async () => {
    const before = await api.get(`/api/v1/user/getuser/${user._id}`, user.accessToken);
    const forms = malformedForms(field('username', `renamed${Date.now().toString(36)}`));
    // A lone closing boundary is a well-formed empty form: an update that changes nothing.
    for (const [what, raw] of forms.filter(([what]) => what !== 'a lone closing boundary')) {
      expectClearRefusal(
        await api.call('PUT', '/api/v1/user/updateProfile', { raw, token: user.accessToken }),
        what,
      );
    }
    expect((await api.get(`/api/v1/user/getuser/${user._id}`, user.accessToken)).body).toEqual(before.body);
  });
});

describe('transport security headers', () => {
  it('sends no HSTS or upgrade-insecure-requests over plain HTTP, and both when served over HTTPS', async () => {
    const plain = await startTestVeil();
    const plainHeaders = (await fetch(`${plain.url}/`)).headers;
    expect(plainHeaders.get('strict-transport-security')).toBeNull();
    expect(plainHeaders.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    // Scripts from Veil alone; WebAssembly compiles (Argon2id), eval does not.
    expect(plainHeaders.get('content-security-policy')).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(plainHeaders.get('content-security-policy')).not.toContain("'unsafe-eval'");
    await plain.destroy();

    const secure = await startTestVeil({ env: { SERVED_OVER_HTTPS: 'true' } });
    const secureHeaders = (await fetch(`${secure.url}/`)).headers;
    expect(secureHeaders.get('strict-transport-security')).toContain('max-age=31536000');
    expect(secureHeaders.get('content-security-policy')).toContain('upgrade-insecure-requests');
    await secure.destroy();
  });

  it("limits connect-src to the page's own origin and its websocket, never any host", async () => {
    const veil = await startTestVeil();
    const connectSrc = (csp: string | null | undefined) =>
      (csp ?? '')
        .split(';')
        .map((directive) => directive.trim())
        .find((directive) => directive.startsWith('connect-src'));
    const { host } = new URL(veil.url);
    expect(connectSrc((await fetch(`${veil.url}/`)).headers.get('content-security-policy'))).toBe(
      `connect-src 'self' ws://${host}`,
    );
    // A Host header that is not a plain host adds no source of its own (nor a directive).
    const odd = await new Promise<string | undefined>((resolve, reject) =>
      request(veil.url, { headers: { host: 'evil.example; connect-src *' } }, (res) => {
        res.resume();
        resolve(res.headers['content-security-policy'] as string | undefined);
      })
        .on('error', reject)
        .end(),
    );
    expect(connectSrc(odd)).toBe("connect-src 'self'");
    await veil.destroy();
  });
});
