import { defaultPrivacy, type Privacy } from '@veil/contracts';
import type { Aggregate } from '@veil/kernel';

/** The profile aggregate (`user-<userId>`): what commands need to decide, nothing more. */
export interface ProfileState {
  exists: boolean;
  cancelled: boolean;
  username: string;
  pictureKey: string | null;
  privacy: Privacy;
}

export const profileAggregate: Aggregate<ProfileState, 'user'> = {
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
};

export const isActive = (state: ProfileState) => state.exists && !state.cancelled;
