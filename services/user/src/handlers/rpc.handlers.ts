import {
  DomainError,
  blocksStreamId,
  defaultPrivacy,
  userStreamId,
  usernameSchema,
  type userRpc,
} from '@veil/contracts';
import {
  appendDecided,
  loadAggregate,
  newEvent,
  withRetry,
  type RpcImplementation,
  type RunningProjection,
} from '@veil/kernel';
import type { Collection, Ports } from '@veil/ports';
import { blocksDecider } from '../domain/blocks.decider.ts';
import { profileDecider } from '../domain/profile.decider.ts';
import type { KeyBackupLimiter } from './key-backup-limits.ts';
import {
  appendKeyBackup,
  checkBackupHoldsKeys,
  keyBackupHandlers,
  keyStatus,
} from './key-backup.handlers.ts';
import { keyLogHandlers } from './key-log.handlers.ts';
import {
  appendKeyLogEntry,
  appendSignedKeyLogEntry,
  checkEncryptionKey,
  checkFirstKeyLogEntry,
  checkSigningKey,
} from './key-log-append.ts';
import { claimUsername, releaseUsername } from './username-claim.ts';
import { toPublicUser, type KeyLogDoc, type UserDoc } from '../projections/user-directory.projection.ts';

type Deps = Pick<Ports, 'clock' | 'ids'> & {
  store: Ports['bus'];
  users: Collection<UserDoc>;
  keyLogs: Collection<KeyLogDoc>;
  directory: RunningProjection;
  limiter: KeyBackupLimiter;
  spendKeyReset: (userId: string) => Promise<void>;
};

const parseUsername = (value: string): string => {
  const parsed = usernameSchema.safeParse(value);
  if (!parsed.success) throw new DomainError('VALIDATION_FAILED', parsed.error.issues[0]!.message);
  return parsed.data;
};

export const userRpcHandlers = (deps: Deps): RpcImplementation<typeof userRpc.operations> => {
  const { store, users, directory } = deps;

  const requireUser = async (userId: string): Promise<UserDoc> => {
    const doc = await users.get(userId);
    if (!doc) throw new DomainError('USER_NOT_FOUND', 'User not found');
    return doc;
  };

  /** The caller's block list as users, in the order they were blocked (gone accounts left out). */
  const blockedUsers = async (userId: string) => {
    const { blocked = [] } = await requireUser(userId);
    const found = new Map((await users.getMany(blocked)).map((doc) => [doc._id, doc]));
    return blocked.flatMap((id) => {
      const doc = found.get(id);
      return doc ? [toPublicUser(doc)] : [];
    });
  };

  return {
    ...keyBackupHandlers({ ...deps, store, requireUser }),
    ...keyLogHandlers({
      ...deps,
      requireUser,
      keyStatus: (userId) => keyStatus({ store, requireUser }, userId),
    }),

    async register({ username: rawUsername, publicKey, signingKey, keyLogEntry, pictureKey, keyBackup }) {
      const username = parseUsername(rawUsername);
      await checkEncryptionKey(publicKey);
      if (signingKey !== undefined) await checkSigningKey(signingKey);
      // A signing key is published only by an entry signed with it; without one (a client that
      // has no signing keys) the log starts with an unsigned entry, as before entries were signed.
      if ((signingKey === undefined) !== (keyLogEntry === undefined))
        throw new DomainError('VALIDATION_FAILED', 'signingKey and keyLogEntry come together');
      if (keyLogEntry && (keyLogEntry.encryptionKey !== publicKey || keyLogEntry.signingKey !== signingKey))
        throw new DomainError('VALIDATION_FAILED', 'keyLogEntry must publish publicKey and signingKey');
      // Refused before anything is stored; appending it again below checks it against the log.
      if (keyLogEntry) await checkFirstKeyLogEntry(deps, keyLogEntry);
      if (keyBackup) checkBackupHoldsKeys(keyBackup, publicKey, signingKey ?? null);
      const userId = deps.ids.next();
      await claimUsername(deps, username, userId);
      // The backup first: once the account exists, so does the backup its user just confirmed.
      if (keyBackup) await appendKeyBackup(deps, userId, keyBackup, 0);
      await store.append(
        'user',
        newEvent(deps, 'UserRegistered', userStreamId(userId), { userId, username, publicKey, pictureKey }),
        { expectedVersion: 0 },
      );
      // After the profile, so the directory entry it updates exists.
      const position = keyLogEntry
        ? await appendSignedKeyLogEntry(deps, userId, keyLogEntry, 'registered')
        : await appendKeyLogEntry(deps, userId, () => ({
            encryptionKey: publicKey,
            signingKey: null,
            reason: 'registered',
          }));
      await directory.waitFor('user', position);
      return { user: toPublicUser(await requireUser(userId)) };
    },

    async cancelRegistration({ userId, username }) {
      const streamId = userStreamId(userId);
      const { state, version } = await loadAggregate(store, profileDecider, streamId);
      const decided = profileDecider.decide({ type: 'CancelRegistration', userId }, state);
      await appendDecided(deps, 'user', streamId, decided, version);
      // Also when already cancelled: a crash may have come between the two steps. Releasing a
      // name this user does not hold does nothing.
      const name = state.exists ? state.username : username;
      if (name) await releaseUsername(deps, name, userId);
      return {};
    },

    async get({ userId }) {
      return { user: toPublicUser(await requireUser(userId)) };
    },

    async getMany({ userIds }) {
      return { users: (await users.getMany(userIds)).map(toPublicUser) };
    },

    async list() {
      return { users: (await users.find({}, { sort: { usernameLower: 1 } })).map(toPublicUser) };
    },

    async search({ query }) {
      const needle = query.trim().toLowerCase();
      const found = await users.find(needle ? { usernameLower: { $icontains: needle } } : {}, {
        sort: { usernameLower: 1 },
        limit: 200,
      });
      return { users: found.map(toPublicUser) };
    },

    async privacy({ userId }) {
      return { privacy: (await requireUser(userId)).privacy ?? defaultPrivacy };
    },

    async setPrivacy({ userId, privacy }) {
      const streamId = userStreamId(userId);
      const { state, version } = await loadAggregate(store, profileDecider, streamId);
      const decided = profileDecider.decide({ type: 'SetPrivacy', userId, privacy }, state);
      const [position] = await appendDecided(deps, 'user', streamId, decided, version);
      await directory.waitFor('user', position!);
      return { privacy };
    },

    async blocks({ userId }) {
      // Asked for right after a block made elsewhere (the realtime gateway says so as soon as it
      // is logged): the list answers with it.
      await directory.upToDate(['user']);
      return { users: await blockedUsers(userId) };
    },

    async setBlocked({ userId, otherUserId, blocked }) {
      await requireUser(userId);
      // Blocking needs someone to block; unblocking an account that is gone must still work.
      if (blocked && userId !== otherUserId) await requireUser(otherUserId);
      const streamId = blocksStreamId(userId);
      const position = await withRetry(async () => {
        const { state, version } = await loadAggregate(store, blocksDecider, streamId);
        const type = blocked ? 'Block' : 'Unblock';
        const decided = blocksDecider.decide({ type, userId, otherUserId }, state);
        return (await appendDecided(deps, 'user', streamId, decided, version)).at(-1) ?? null;
      });
      if (position) await directory.waitFor('user', position);
      return { users: await blockedUsers(userId), position: position ?? directory.position('user') };
    },

    async publicKey({ userId }) {
      const user = await requireUser(userId);
      return { publicKey: user.publicKey, signingKey: user.signingKey ?? null };
    },

    async updateProfile({ userId, username: rawUsername, pictureKey }) {
      const streamId = userStreamId(userId);
      const { state, version } = await loadAggregate(store, profileDecider, streamId);
      const username = rawUsername === undefined ? undefined : parseUsername(rawUsername);
      const decided = profileDecider.decide(
        { type: 'UpdateProfile', userId, ...(username !== undefined && { username }), pictureKey },
        state,
      );
      // A new name (not only new capitals) is claimed before the rename is stored, and the old
      // one given up after; a rename that fails to store gives the new claim back.
      const renamed = decided.find((event) => event.type === 'UserRenamed');
      const claimed = renamed && renamed.data.username.toLowerCase() !== state.username.toLowerCase();
      if (claimed) await claimUsername(deps, renamed.data.username, userId);
      let positions: number[];
      try {
        positions = await appendDecided(deps, 'user', streamId, decided, version);
      } catch (error) {
        if (claimed) await releaseUsername(deps, renamed.data.username, userId);
        throw error;
      }
      if (claimed) await releaseUsername(deps, state.username, userId);
      const position = positions.at(-1);
      const replacedPictureKey = decided.some((event) => event.type === 'ProfilePictureChanged')
        ? state.pictureKey
        : null;
      if (position) await directory.waitFor('user', position);
      return { user: toPublicUser(await requireUser(userId)), replacedPictureKey };
    },
  };
};
