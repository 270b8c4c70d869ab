import { defaultPrivacy, DomainError, type EventData, type Privacy } from '@veil/contracts';
import type { Decider } from '@veil/kernel';

/** A profile (`user-<userId>`), folded from its stream: what commands need to decide, nothing more. */
export interface ProfileState {
  exists: boolean;
  cancelled: boolean;
  username: string;
  pictureKey: string | null;
  privacy: Privacy;
}

/**
 * The caller is the token's user. `username` is already parsed (a valid name); a name another
 * account holds is refused by its claim, which the handler makes before appending.
 */
export type ProfileCommand =
  | { type: 'CancelRegistration'; userId: string }
  | { type: 'SetPrivacy'; userId: string; privacy: Privacy }
  | { type: 'UpdateProfile'; userId: string; username?: string; pictureKey?: string | null };

export type ProfileDecision =
  | { type: 'UserRegistrationCancelled'; data: EventData<'UserRegistrationCancelled'> }
  | { type: 'PrivacyChanged'; data: EventData<'PrivacyChanged'> }
  | { type: 'UserRenamed'; data: EventData<'UserRenamed'> }
  | { type: 'ProfilePictureChanged'; data: EventData<'ProfilePictureChanged'> };

export const isActive = (state: ProfileState) => state.exists && !state.cancelled;

const requireActive = (state: ProfileState) => {
  if (!isActive(state)) throw new DomainError('USER_NOT_FOUND', 'User not found');
};

/**
 * A profile's rules. Cancelling a registration twice records nothing (a retry after a crash
 * between its two steps is harmless); a change to what the profile already says records nothing.
 */
export const profileDecider: Decider<ProfileCommand, ProfileState, 'user', ProfileDecision> = {
  context: 'user',
  initialState: () => ({
    exists: false,
    cancelled: false,
    username: '',
    pictureKey: null,
    privacy: defaultPrivacy,
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'UserRegistered':
        return { ...state, exists: true, username: event.data.username, pictureKey: event.data.pictureKey };
      case 'UserRenamed':
        return { ...state, username: event.data.username };
      case 'ProfilePictureChanged':
        return { ...state, pictureKey: event.data.pictureKey };
      case 'UserRegistrationCancelled':
        return { ...state, cancelled: true };
      case 'PrivacyChanged':
        return { ...state, privacy: event.data.privacy };
      case 'UsernameClaimed':
      case 'UsernameReleased':
      case 'KeyBackupStored':
      case 'KeysPublished':
      case 'UserBlocked':
      case 'UserUnblocked':
        return state;
      default: {
        const unhandled: never = event;
        return unhandled;
      }
    }
  },
  decide: (command, state) => {
    const { userId } = command;
    switch (command.type) {
      case 'CancelRegistration':
        return isActive(state) ? [{ type: 'UserRegistrationCancelled', data: { userId } }] : [];
      case 'SetPrivacy':
        requireActive(state);
        return [{ type: 'PrivacyChanged', data: { userId, privacy: command.privacy } }];
      case 'UpdateProfile': {
        requireActive(state);
        const decided: ProfileDecision[] = [];
        const { username, pictureKey } = command;
        if (pictureKey !== undefined && pictureKey !== state.pictureKey)
          decided.push({ type: 'ProfilePictureChanged', data: { userId, pictureKey } });
        // The rename last: when its append fails, nothing after it was stored either, so the
        // handler can give back the name it claimed for it.
        if (username !== undefined && username !== state.username)
          decided.push({ type: 'UserRenamed', data: { userId, username, previousUsername: state.username } });
        return decided;
      }
    }
  },
};
