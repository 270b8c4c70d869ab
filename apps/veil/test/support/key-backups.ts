import {
  createKeyBackup,
  exportPublicKeySpkiBase64,
  generateRecoveryKey,
  generateUserKeyPair,
  type KeyBackup,
} from '@veil/crypto';
import type { Api } from './api-client.ts';
import { createUser, type TestUser } from './users.ts';

/** A user registered as the browser registers: the key backup made from the fresh key pair goes with the form. */
export interface BackedUpUser extends TestUser {
  recoveryKey: string;
  backup: KeyBackup;
}

export const createBackedUpUser = async (
  api: Api,
  base = 'kb',
  { passphrase = null as string | null, password = 'correct horse battery' } = {},
): Promise<BackedUpUser> => {
  const keys = await generateUserKeyPair();
  const publicKey = await exportPublicKeySpkiBase64(keys.publicKey);
  const recoveryKey = generateRecoveryKey();
  const backup = await createKeyBackup({ privateKey: keys.privateKey, publicKey, recoveryKey, passphrase });
  const user = await createUser(api, base, password, { keys, fields: { keyBackup: JSON.stringify(backup) } });
  return { ...user, recoveryKey, backup };
};
