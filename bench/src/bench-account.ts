import { exportPublicKeySpkiBase64, generateUserKeyPair } from '@veil/crypto';

const password = 'bench-password';

/**
 * A user registered and logged in over Veil's HTTP API, as the web app does: its key pair, id
 * and access token. Each costs a deliberately slow password hash.
 */
export const registerBenchAccount = async (url: string, name: string) => {
  const keys = await generateUserKeyPair();
  const username = name.slice(0, 30);
  const form = new FormData();
  form.append('username', username);
  form.append('password', password);
  form.append('publicKey', await exportPublicKeySpkiBase64(keys.publicKey));
  const registered = await fetch(`${url}/api/v1/user/register`, { method: 'POST', body: form });
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status}`);
  const login = await fetch(`${url}/api/v1/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- loosely typed JSON from the API
  const body = (await login.json()) as any;
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${JSON.stringify(body)}`);
  return {
    keys,
    id: body.data.user.loggedUser._id as string,
    token: body.data.user.accesstoken as string,
  };
};
