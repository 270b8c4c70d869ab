import { describe, expect, it } from 'vitest';
import type { UserEvent } from '@veil/contracts';
import { profileUpdateOf } from './profile-updates.ts';

const event = (type: string, data: Record<string, unknown>) => ({ type, data }) as unknown as UserEvent;

describe('profile updates', () => {
  it('tells a new name and a new picture, as the API shows them', () => {
    expect(
      profileUpdateOf(event('UserRenamed', { userId: 'u1', username: 'ann', previousUsername: 'an' })),
    ).toEqual({
      _id: 'u1',
      username: 'ann',
    });
    expect(profileUpdateOf(event('ProfilePictureChanged', { userId: 'u1', pictureKey: 'u1-2.png' }))).toEqual(
      {
        _id: 'u1',
        profilePicture: '/api/v1/media/u1-2.png',
      },
    );
    expect(profileUpdateOf(event('ProfilePictureChanged', { userId: 'u1', pictureKey: null }))).toEqual({
      _id: 'u1',
      profilePicture: null,
    });
  });

  it('says nothing for events that change no public profile', () => {
    expect(profileUpdateOf(event('KeyBackupStored', { userId: 'u1' }))).toBeNull();
  });
});
