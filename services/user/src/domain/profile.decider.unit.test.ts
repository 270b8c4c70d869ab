import { describe, expect, it } from 'vitest';
import { defaultPrivacy, userStreamId, type UserEvent } from '@veil/contracts';
import { profileDecider, type ProfileState } from './profile.decider.ts';

const code = (c: string) => expect.objectContaining({ code: c });
const event = (type: UserEvent['type'], data: object) =>
  ({
    eventId: 'e',
    schemaVersion: 1,
    type,
    streamId: userStreamId('alice'),
    occurredAt: '2026-01-01T00:00:00.000Z',
    data: { userId: 'alice', ...data },
  }) as UserEvent;
const fold = (events: UserEvent[]): ProfileState =>
  events.reduce(profileDecider.evolve, profileDecider.initialState());
const registered = fold([event('UserRegistered', { username: 'alice', publicKey: 'k', pictureKey: 'p1' })]);

describe('deciding on a profile', () => {
  it('cancels a registration once; a retry, or no account at all, records nothing', () => {
    const cancel = { type: 'CancelRegistration', userId: 'alice' } as const;
    expect(profileDecider.decide(cancel, registered)).toEqual([
      { type: 'UserRegistrationCancelled', data: { userId: 'alice' } },
    ]);
    const cancelled = fold([
      event('UserRegistered', { username: 'alice', publicKey: 'k', pictureKey: null }),
      event('UserRegistrationCancelled', {}),
    ]);
    expect(profileDecider.decide(cancel, cancelled)).toEqual([]);
    expect(profileDecider.decide(cancel, profileDecider.initialState())).toEqual([]);
  });

  it('changes privacy and profile only of an account that exists and is not cancelled', () => {
    const privacy = { ...defaultPrivacy, online: false };
    expect(profileDecider.decide({ type: 'SetPrivacy', userId: 'alice', privacy }, registered)).toEqual([
      { type: 'PrivacyChanged', data: { userId: 'alice', privacy } },
    ]);
    const cancelled = fold([
      event('UserRegistered', { username: 'alice', publicKey: 'k', pictureKey: null }),
      event('UserRegistrationCancelled', {}),
    ]);
    for (const state of [cancelled, profileDecider.initialState()]) {
      expect(() => profileDecider.decide({ type: 'SetPrivacy', userId: 'alice', privacy }, state)).toThrow(
        code('USER_NOT_FOUND'),
      );
      expect(() =>
        profileDecider.decide({ type: 'UpdateProfile', userId: 'alice', username: 'al' }, state),
      ).toThrow(code('USER_NOT_FOUND'));
    }
  });

  it('records a new picture, then a new name, and nothing for what the profile already says', () => {
    const update = { type: 'UpdateProfile', userId: 'alice' } as const;
    expect(profileDecider.decide({ ...update, username: 'Alicia', pictureKey: 'p2' }, registered)).toEqual([
      { type: 'ProfilePictureChanged', data: { userId: 'alice', pictureKey: 'p2' } },
      { type: 'UserRenamed', data: { userId: 'alice', username: 'Alicia', previousUsername: 'alice' } },
    ]);
    expect(profileDecider.decide({ ...update, username: 'alice', pictureKey: 'p1' }, registered)).toEqual([]);
    expect(profileDecider.decide(update, registered)).toEqual([]);
    // Removing the picture is a change.
    expect(profileDecider.decide({ ...update, pictureKey: null }, registered)).toEqual([
      { type: 'ProfilePictureChanged', data: { userId: 'alice', pictureKey: null } },
    ]);
    const renamed = fold([
      event('UserRegistered', { username: 'alice', publicKey: 'k', pictureKey: null }),
      event('UserRenamed', { username: 'Alicia', previousUsername: 'alice' }),
    ]);
    expect(renamed.username).toBe('Alicia');
  });
});
