import {
  buildIndividualPayload,
  exportPublicKeySpkiBase64,
  generateSigningKeyPair,
  generateUserKeyPair,
  signKeyLogEntry,
} from '@veil/crypto';
import type { Api } from './api-client.ts';

/** A registered, logged-in user with a real RSA-OAEP key pair, as the browser would make it. */
export interface TestUser {
  _id: string;
  username: string;
  password: string;
  keys: CryptoKeyPair;
  publicKey: string;
  accessToken: string;
  refreshToken: string;
}

let counter = 0;
export const uniqueName = (base = 'user') =>
  `${base}${Date.now().toString(36)}${(counter++).toString(36)}`.slice(0, 30);

export const registerForm = (
  fields: Record<string, string>,
  picture?: { bytes: Uint8Array; name: string; type: string },
) => {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) form.append(key, value);
  if (picture)
    form.append(
      'profilePicture',
      new Blob([new Uint8Array(picture.bytes)], { type: picture.type }),
      picture.name,
    );
  return form;
};

/** `keys` and extra form `fields` (e.g. a `keyBackup`) when the caller made them already. */
export const createUser = async (
  api: Api,
  base = 'user',
  password = 'correct horse battery',
  made: { keys?: CryptoKeyPair; fields?: Record<string, string>; username?: string } = {},
): Promise<TestUser> => {
  const username = made.username ?? uniqueName(base);
  const keys = made.keys ?? (await generateUserKeyPair());
  const publicKey = await exportPublicKeySpkiBase64(keys.publicKey);
  const registered = await api.call('POST', '/api/v1/user/register', {
    form: registerForm({ username, password, publicKey, ...made.fields }),
  });
  if (registered.status !== 201) throw new Error(`register failed: ${JSON.stringify(registered.body)}`);
  const login = await api.post('/api/v1/user/login', { username, password });
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  const { accesstoken, refreshtoken, loggedUser } = login.body.data.user;
  return {
    _id: loggedUser._id,
    username,
    password,
    keys,
    publicKey,
    accessToken: accesstoken,
    refreshToken: refreshtoken,
  };
};

/**
 * A user registered as the browser registers: both keys in the form, with the first key log
 * entry signed by the new signing key. `signing` is its ECDSA key pair.
 */
export const createSigningUser = async (api: Api, base = 'user', username?: string) => {
  const [keys, signing] = await Promise.all([generateUserKeyPair(), generateSigningKeyPair()]);
  const [publicKey, signingKey] = await Promise.all([
    exportPublicKeySpkiBase64(keys.publicKey),
    exportPublicKeySpkiBase64(signing.publicKey),
  ]);
  const entry = await signKeyLogEntry(
    null,
    { encryptionKey: publicKey, signingKey, reason: 'registered' },
    signing.privateKey,
  );
  const user = await createUser(api, base, undefined, {
    keys,
    fields: { signingKey, keyLogEntry: JSON.stringify(entry) },
    ...(username && { username }),
  });
  return { ...user, signing, signingKey };
};

/** The body of the first-message call (`sendIndividualMessage`) from one test user to another, encrypted for both. */
export const directMessage = (from: TestUser, to: TestUser, text: string) =>
  buildIndividualPayload(text, {
    recipientId: to._id,
    recipientKey: to.keys.publicKey,
    senderId: from._id,
    senderKey: from.keys.publicKey,
  });

/** A one-to-one message from `from` to `to` over HTTP, encrypted as the browser does. */
export const sendDirect = async (
  api: Api,
  from: TestUser,
  to: TestUser,
  text: string,
  extra: Record<string, unknown> = {},
) =>
  api.post(
    `/api/v1/message/sendIndividualMessage/${to._id}`,
    {
      ...(await directMessage(from, to, text)),
      ...extra,
    },
    from.accessToken,
  );

/** A group created by `creator` with `others` over HTTP; its chat id. */
export const createGroup = async (api: Api, creator: TestUser, name: string, others: TestUser[]) => {
  const created = await api.post(
    '/api/v1/chat/creategroupchat',
    { groupName: name, participants: others.map((user) => user._id) },
    creator.accessToken,
  );
  if (created.status !== 201) throw new Error(`group not created: ${JSON.stringify(created.body)}`);
  return created.body.data._id as string;
};
