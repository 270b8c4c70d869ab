import type { ProjectionDefinition } from '@veil/kernel';
import type { Collection, ReadStore } from '@veil/ports';

/** Login lookup by name, and which refresh families a user has (to revoke them on a password change). */
export interface CredentialDoc {
  _id: string;
  usernameLower: string;
  passwordHash: string;
  passwordChangedAt: string | null;
  disabled: boolean;
}

export interface FamilyDoc {
  _id: string;
  userId: string;
  revoked: boolean;
}

/** A username claimed for a new account whose credentials have not arrived yet. */
export interface PendingRegistrationDoc {
  _id: string;
  username: string;
  claimedAt: string;
  /** Its credentials were declared abandoned; what is left is freeing the name. */
  abandoned: boolean;
}

/** An account an operator suspended: it may neither log in nor refresh (docs/decisions.md). */
export interface SuspensionDoc {
  _id: string;
  at: string;
  by: string;
}

export type AuthReadModels = {
  credentials: Collection<CredentialDoc>;
  suspensions: Collection<SuspensionDoc>;
  families: Collection<FamilyDoc>;
  pendingRegistrations: Collection<PendingRegistrationDoc>;
};

export const openAuthReadModels = async (readStore: ReadStore): Promise<AuthReadModels> => ({
  credentials: await readStore.collection<CredentialDoc>('auth_credentials', [
    { fields: { usernameLower: 1 } },
  ]),
  suspensions: await readStore.collection<SuspensionDoc>('auth_suspensions', [{ fields: { at: 1 } }]),
  families: await readStore.collection<FamilyDoc>('auth_refresh_families', [{ fields: { userId: 1 } }]),
  pendingRegistrations: await readStore.collection<PendingRegistrationDoc>('auth_pending_registrations', [
    { fields: { claimedAt: 1 } },
  ]),
});

export const credentialsProjection = (
  models: AuthReadModels,
): ProjectionDefinition<AuthReadModels, 'auth' | 'user'> => ({
  name: 'auth_credentials',
  contexts: ['auth', 'user'],
  models,
  async handle({ event }, { credentials, suspensions, families, pendingRegistrations: pending }) {
    switch (event.type) {
      case 'CredentialsRegistered':
        await credentials.put({
          _id: event.data.userId,
          usernameLower: event.data.username.toLowerCase(),
          passwordHash: event.data.passwordHash,
          passwordChangedAt: null,
          disabled: false,
        });
        await pending.delete(event.data.userId);
        return;
      // A claim by a user with credentials is a rename; any other is a registration under way.
      // The two contexts are followed apart, so either order of claim and credentials is handled.
      case 'UsernameClaimed':
        if (!(await credentials.get(event.data.userId)) && !(await pending.get(event.data.userId)))
          await pending.put({
            _id: event.data.userId,
            username: event.data.username,
            claimedAt: event.occurredAt,
            abandoned: false,
          });
        return;
      case 'CredentialsAbandoned': {
        const doc = await pending.get(event.data.userId);
        if (doc) await pending.put({ ...doc, abandoned: true });
        return;
      }
      case 'UsernameReleased':
        await pending.delete(event.data.userId);
        return;
      case 'PasswordChanged': {
        const doc = await credentials.get(event.data.userId);
        if (doc)
          await credentials.put({
            ...doc,
            passwordHash: event.data.passwordHash,
            passwordChangedAt: event.occurredAt,
          });
        return;
      }
      case 'RefreshTokenIssued':
        if (!(await families.get(event.data.familyId))) {
          await families.put({ _id: event.data.familyId, userId: event.data.userId, revoked: false });
        }
        return;
      case 'RefreshFamilyRevoked':
        await families.put({ _id: event.data.familyId, userId: event.data.userId, revoked: true });
        return;
      case 'AccountSuspended':
        await suspensions.put({ _id: event.data.userId, at: event.occurredAt, by: event.data.by });
        return;
      case 'AccountUnsuspended':
        await suspensions.delete(event.data.userId);
        return;
      case 'UserRenamed': {
        const doc = await credentials.get(event.data.userId);
        if (doc) await credentials.put({ ...doc, usernameLower: event.data.username.toLowerCase() });
        return;
      }
      case 'UserRegistrationCancelled': {
        const doc = await credentials.get(event.data.userId);
        if (doc) await credentials.put({ ...doc, disabled: true });
        return;
      }
      case 'UserRegistered':
      case 'ProfilePictureChanged':
      case 'KeyBackupStored':
      case 'KeysPublished':
      case 'PrivacyChanged':
      case 'UserBlocked':
      case 'UserUnblocked':
        return;
      default: {
        // Every event of the contexts followed is named above: a new one must be decided on.
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
});
