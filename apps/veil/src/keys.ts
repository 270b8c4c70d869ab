import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generateVapidKeys, type VapidKeys } from '@veil/web-push';
import { generateTokenKeyPair, type TokenKeyPair } from '@veil/tokens';
import type { VeilConfig } from './config.ts';

/**
 * The access-token signing keys. Deployments pass them in (JWT_PRIVATE_KEY to auth,
 * JWT_PUBLIC_KEY to the gateways, from a Secret). A single machine without them generates a
 * pair once and keeps it in DATA_DIR (mode 0600), so tokens survive a restart.
 */
export const loadTokenKeys = async (config: VeilConfig): Promise<Partial<TokenKeyPair>> => {
  if (config.JWT_PUBLIC_KEY) {
    return {
      publicJwk: config.JWT_PUBLIC_KEY,
      ...(config.JWT_PRIVATE_KEY ? { privateJwk: config.JWT_PRIVATE_KEY } : {}),
    };
  }
  const file = path.join(config.dataDir, 'keys', 'access-token.jwk.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as TokenKeyPair;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const pair = await generateTokenKeyPair();
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(pair), { mode: 0o600, flag: 'wx' }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  });
  return JSON.parse(await readFile(file, 'utf8')) as TokenKeyPair;
};

/**
 * The Web Push (VAPID) keys: from the configuration, or in embedded mode a pair generated once
 * and kept in DATA_DIR beside the token keys (browsers' subscriptions are made to the public
 * key, so it must survive restarts). A cluster without them sends no pushes: its replicas would
 * each make a pair of their own.
 */
export const loadVapidKeys = async (config: VeilConfig): Promise<VapidKeys | undefined> => {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY)
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  if (config.NATS_URL) return undefined;
  const file = path.join(config.dataDir, 'keys', 'vapid.json');
  try {
    return JSON.parse(await readFile(file, 'utf8')) as VapidKeys;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(generateVapidKeys()), { mode: 0o600, flag: 'wx' }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EEXIST') throw error;
    },
  );
  return JSON.parse(await readFile(file, 'utf8')) as VapidKeys;
};
