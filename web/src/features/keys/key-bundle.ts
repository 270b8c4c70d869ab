/**
 * The account's private keys as one versioned JSON text, for carrying them to another browser
 * of the account (linking): `{"version": 1, "keys": [{"publicKey": <base64 SPKI>, "privateKey":
 * <JWK>}, …], "signingKeys": [the same for the identity signing keys]}`, newest first. Version 2
 * adds `state`: what the account's browsers trust (`account-state.ts`), so a linked browser
 * starts with it. A kind of key the account gains later joins as a field of its own; a reader
 * refuses a version it does not know rather than guess, and still reads version 1.
 */
export const keyBundleVersion = 2;
const readableVersions: readonly number[] = [1, 2];
/** More than any account holds (its current key and the older ones it kept). */
const maxKeys = 32;

export interface BundledKey {
  publicKey: string;
  privateKey: JsonWebKey;
}

export interface AccountKeyBundle {
  version: 1 | typeof keyBundleVersion;
  keys: BundledKey[];
  /** The identity signing keys; absent when the other browser held none. */
  signingKeys?: BundledKey[];
  /** Version 2: the account state as the other browser held it, for `parseAccountState` to read. */
  state?: unknown;
}

export class KeyBundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyBundleError';
  }
}

const isBundledKey = (value: unknown): value is BundledKey => {
  const key = value as Partial<BundledKey> | null;
  return (
    typeof key === 'object' &&
    key !== null &&
    typeof key.publicKey === 'string' &&
    typeof key.privateKey === 'object' &&
    key.privateKey !== null
  );
};

const isKeyList = (keys: unknown, least: number): keys is BundledKey[] =>
  Array.isArray(keys) && keys.length >= least && keys.length <= maxKeys && keys.every(isBundledKey);

export const serializeKeyBundle = (keys: BundledKey[], signingKeys: BundledKey[], state: unknown): string =>
  JSON.stringify({ version: keyBundleVersion, keys, signingKeys, state } satisfies AccountKeyBundle);

/** The bundle in `text`; KeyBundleError when it is not one this version can read. */
export const parseKeyBundle = (text: string): AccountKeyBundle => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new KeyBundleError('The keys that arrived are not readable');
  }
  const bundle = value as Partial<AccountKeyBundle> | null;
  if (typeof bundle !== 'object' || bundle === null)
    throw new KeyBundleError('The keys that arrived are not readable');
  if (!readableVersions.includes(bundle.version as number))
    throw new KeyBundleError('The other browser runs a newer Veil: reload both pages and start again');
  const { keys, signingKeys = [] } = bundle;
  if (!isKeyList(keys, 1) || !isKeyList(signingKeys, 0))
    throw new KeyBundleError('The keys that arrived are not readable');
  return bundle.version === 1
    ? { version: 1, keys, signingKeys }
    : { version: keyBundleVersion, keys, signingKeys, state: bundle.state };
};
