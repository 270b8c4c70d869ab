import {
  blockListAfter,
  mediaUrl,
  type KeyLogEntryView,
  type Privacy,
  type PublicUser,
} from '@veil/contracts';
import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';

/** The user directory read model: one document per active user. */
export interface UserDoc {
  _id: string;
  username: string;
  usernameLower: string;
  pictureKey: string | null;
  /** The current encryption key: the key-log's last entry's, or the registration's for accounts without a log. */
  publicKey: string;
  registeredAt: string;
  /** Absent until the owner changes a switch: the defaults. */
  privacy?: Privacy;
  /** The current signing key; absent or null until the account has one. */
  signingKey?: string | null;
  /** When the current keys were published, once they were published through the key log. */
  keysPublishedAt?: string;
  /** The users this account blocked, oldest first; private to the owner. Absent: none. */
  blocked?: string[];
}

/** An account's key-change log, oldest entry first (the `KeysPublished` events of `keylog-<id>`). */
export interface KeyLogDoc {
  _id: string;
  entries: KeyLogEntryView[];
}

export const openUserDirectory = (readStore: ReadStore): Promise<Collection<UserDoc>> =>
  readStore.collection<UserDoc>('user_directory', [{ fields: { usernameLower: 1 } }]);

export const openKeyLogs = (readStore: ReadStore): Promise<Collection<KeyLogDoc>> =>
  readStore.collection<KeyLogDoc>('user_key_logs');

export const toPublicUser = (doc: UserDoc): PublicUser => ({
  _id: doc._id,
  username: doc.username,
  profilePicture: mediaUrl(doc.pictureKey),
});

export const userDirectoryProjection = (
  directory: Collection<UserDoc>,
  keyLogs: Collection<KeyLogDoc>,
): ProjectionDefinition<{ users: Collection<UserDoc>; keyLogs: Collection<KeyLogDoc> }, 'user'> => ({
  name: 'user_directory',
  contexts: ['user'],
  models: { users: directory, keyLogs },
  async handle({ event }, { users, keyLogs }) {
    switch (event.type) {
      case 'UserRegistered': {
        const { userId, username, publicKey, pictureKey } = event.data;
        await users.put({
          _id: userId,
          username,
          usernameLower: username.toLowerCase(),
          pictureKey,
          publicKey,
          registeredAt: event.occurredAt,
        });
        return;
      }
      case 'UserRenamed': {
        const doc = await users.get(event.data.userId);
        if (doc)
          await users.put({
            ...doc,
            username: event.data.username,
            usernameLower: event.data.username.toLowerCase(),
          });
        return;
      }
      case 'ProfilePictureChanged': {
        const doc = await users.get(event.data.userId);
        if (doc) await users.put({ ...doc, pictureKey: event.data.pictureKey });
        return;
      }
      case 'UserRegistrationCancelled':
        await users.delete(event.data.userId);
        return;
      case 'KeysPublished': {
        const { userId, entry } = event.data;
        const log = (await keyLogs.get(userId)) ?? { _id: userId, entries: [] };
        // Entries arrive in sequence; one applied already (a redelivery) changes nothing.
        if (entry.seq === log.entries.length + 1)
          await keyLogs.put({ ...log, entries: [...log.entries, entry] });
        const doc = await users.get(userId);
        if (doc)
          await users.put({
            ...doc,
            publicKey: entry.encryptionKey,
            signingKey: entry.signingKey,
            // Only a new encryption key moves the time messages are compared with (a reset).
            ...(entry.encryptionKey !== doc.publicKey && { keysPublishedAt: entry.at }),
          });
        return;
      }
      case 'PrivacyChanged': {
        const doc = await users.get(event.data.userId);
        if (doc) await users.put({ ...doc, privacy: event.data.privacy });
        return;
      }
      case 'UserBlocked':
      case 'UserUnblocked': {
        const doc = await users.get(event.data.userId);
        if (doc) await users.put({ ...doc, blocked: blockListAfter(doc.blocked ?? [], event) });
        return;
      }
      case 'UsernameClaimed':
      case 'UsernameReleased':
      case 'KeyBackupStored':
        return;
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
});
