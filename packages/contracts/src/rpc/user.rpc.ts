import { z } from 'zod';
import { idSchema } from '../events/event.ts';
import {
  keyBackupSchema,
  accountStateSchema,
  type AccountStateBlob,
  type KeyBackupBlob,
  type KeyBackupSummary,
  type KeyStatus,
} from '../http/key-backup.schemas.ts';
import { signedKeyLogEntrySchema, type KeyLogView } from '../http/key-log.schemas.ts';
import { privacySchema, type Privacy, type PublicUser } from '../http/schemas.ts';
import { defineRpcService, operation } from './rpc.ts';

/** The user service: owns usernames, profiles, public keys and the encrypted key backups. */
export const userRpc = defineRpcService('user', {
  /** With `keyBackup`, the account starts with a backup of the key made at registration. */
  register: operation<{ user: PublicUser }>()(
    z.object({
      username: z.string(),
      publicKey: z.string(),
      /**
       * The identity signing key and the first key log entry, signed with it; absent from
       * clients without signing keys (the log then starts with an unsigned legacy entry).
       */
      signingKey: z.string().optional(),
      keyLogEntry: signedKeyLogEntrySchema.optional(),
      pictureKey: z.string().nullable(),
      keyBackup: keyBackupSchema.optional(),
    }),
  ),
  /**
   * Undoes a registration: cancels the profile if it was made, and frees the username (given
   * when the profile may never have been written: the claim is all there is).
   */
  cancelRegistration: operation<Record<string, never>>()(
    z.object({ userId: idSchema, username: z.string().max(100).optional() }),
  ),
  get: operation<{ user: PublicUser }>()(z.object({ userId: idSchema })),
  getMany: operation<{ users: PublicUser[] }>()(z.object({ userIds: z.array(idSchema).max(1000) })),
  list: operation<{ users: PublicUser[] }>()(z.object({})),
  search: operation<{ users: PublicUser[] }>()(z.object({ query: z.string().max(200) })),
  publicKey: operation<{ publicKey: string; signingKey: string | null }>()(z.object({ userId: idSchema })),
  /** A user's key-change log and current keys; USER_NOT_FOUND for no such active user. */
  keyLog: operation<KeyLogView>()(z.object({ userId: idSchema })),
  /**
   * The caller's first signing key (`userId` is the verified caller), as the signed
   * `signing-key-added` entry; refused if it has one.
   */
  addSigningKey: operation<KeyStatus>()(z.object({ userId: idSchema, entry: signedKeyLogEntrySchema })),
  /** The caller's current keys re-published unchanged, as a signed `attested` entry. */
  attestKeys: operation<KeyStatus>()(z.object({ userId: idSchema, entry: signedKeyLogEntrySchema })),
  /**
   * "I lost my key: start fresh": the signed `reset` entry publishing new keys, and their backup;
   * throttled per account.
   */
  resetKeys: operation<KeyStatus>()(
    z.object({
      userId: idSchema,
      entry: signedKeyLogEntrySchema,
      keyBackup: keyBackupSchema.optional(),
    }),
  ),
  /** The caller's own published key and backup summary (`userId` is the verified caller). */
  keyStatus: operation<KeyStatus>()(z.object({ userId: idSchema })),
  /** The caller's backup; throttled per account (RATE_LIMITED), NOT_FOUND when there is none. */
  keyBackup: operation<{ backup: KeyBackupBlob; storedAt: string }>()(z.object({ userId: idSchema })),
  /** Stores or replaces the caller's backup; throttled per account. */
  storeKeyBackup: operation<KeyBackupSummary>()(z.object({ userId: idSchema, backup: keyBackupSchema })),
  /**
   * The sealed account state in the caller's backup (null when the backup has none); not counted
   * as a download: it holds no key, and opens only with the account's own keys.
   */
  accountState: operation<{ state: AccountStateBlob | null; storedAt: string }>()(
    z.object({ userId: idSchema }),
  ),
  /** Replaces the state in the caller's backup, the rest byte for byte; NOT_FOUND without a backup. */
  storeAccountState: operation<{ storedAt: string }>()(
    z.object({ userId: idSchema, state: accountStateSchema }),
  ),
  /** The caller's privacy switches (the defaults until changed). */
  privacy: operation<{ privacy: Privacy }>()(z.object({ userId: idSchema })),
  setPrivacy: operation<{ privacy: Privacy }>()(z.object({ userId: idSchema, privacy: privacySchema })),
  /** The users the caller blocked, newest block last. */
  blocks: operation<{ users: PublicUser[] }>()(z.object({ userId: idSchema })),
  /** Blocks or unblocks one user; `position` is the user log's, once the change is recorded. */
  setBlocked: operation<{ users: PublicUser[]; position: number }>()(
    z.object({ userId: idSchema, otherUserId: idSchema, blocked: z.boolean() }),
  ),
  /** Returns the replaced picture key, so the caller can delete that blob. */
  updateProfile: operation<{ user: PublicUser; replacedPictureKey: string | null }>()(
    z.object({
      userId: idSchema,
      username: z.string().optional(),
      pictureKey: z.string().nullable().optional(),
    }),
  ),
});
