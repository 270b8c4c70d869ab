import { mediaUrl, type ProfileUpdate, type UserEvent } from '@veil/contracts';
import type { ContextEventBus, Logger, Subscription } from '@veil/ports';
import type { MembershipProjection } from './membership.projection.ts';
import { userRoom, type RealtimeServer } from './socket-types.ts';

export interface ProfileUpdatesDeps {
  bus: ContextEventBus;
  io: RealtimeServer;
  membership: Pick<MembershipProjection, 'contactsOf'>;
  log: Logger;
}

/** The public profile change an event makes, if it makes one. */
export const profileUpdateOf = (event: UserEvent): ProfileUpdate | null => {
  switch (event.type) {
    case 'UserRenamed':
      return { _id: event.data.userId, username: event.data.username };
    case 'ProfilePictureChanged':
      return { _id: event.data.userId, profilePicture: mediaUrl(event.data.pictureKey) };
    default:
      return null;
  }
};

/**
 * Renames and new pictures, live: every replica follows the user log from the head it finds at
 * start (as the message fan-out does) and tells the user's contacts, and the user's own other
 * devices, among its own sockets (`user updated`). A socket that connects later reads names and
 * pictures with the chats it loads, so nothing before the start is needed.
 */
export const startProfileUpdates = async (deps: ProfileUpdatesDeps): Promise<Subscription> => {
  const { io, membership, log } = deps;
  let emittedUpTo = await deps.bus.headPosition('user');
  return deps.bus.follow({
    context: 'user',
    afterPosition: emittedUpTo,
    handler: (recorded) => {
      if (recorded.position <= emittedUpTo) return;
      emittedUpTo = recorded.position;
      const update = profileUpdateOf(recorded.event);
      if (!update) return;
      const rooms = [update._id, ...membership.contactsOf(update._id)].map(userRoom);
      io.local.to(rooms).emit('user updated', update);
      log.debug({ userId: update._id }, 'profile update delivered');
    },
  });
};
