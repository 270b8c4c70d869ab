import { mediaUrl, type Privacy, type PublicUser, type UserEvent } from '@veil/contracts';
import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';

/** The user directory read model: one document per active user. */
export interface UserDoc {
  _id: string;
  username: string;
  usernameLower: string;
  pictureKey: string | null;
  publicKey: string;
  registeredAt: string;
  /** Absent until the owner changes a switch: the defaults. */
  privacy?: Privacy;
}

export const openUserDirectory = (readStore: ReadStore): Promise<Collection<UserDoc>> =>
  readStore.collection<UserDoc>('user_directory', [{ fields: { usernameLower: 1 } }]);

export const toPublicUser = (doc: UserDoc): PublicUser => ({
  _id: doc._id,
  username: doc.username,
  profilePicture: mediaUrl(doc.pictureKey),
});

export const userDirectoryProjection = (
  directory: Collection<UserDoc>,
): ProjectionDefinition<{ users: Collection<UserDoc> }> => ({
  name: 'user_directory',
  contexts: ['user'],
  models: { users: directory },
  async handle({ event: raw }, { users }) {
    const event = raw as UserEvent;
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
      case 'PrivacyChanged': {
        const doc = await users.get(event.data.userId);
        if (doc) await users.put({ ...doc, privacy: event.data.privacy });
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
