import type { MembershipChange } from './membership.map.ts';
import { chatRoom, userRoom, type RealtimeServer } from './socket-types.ts';

/**
 * A group changed, or any chat's disappearing timer: its members before and after are told (`chat updated`, so their screens
 * fetch it again), and a member who went leaves the chat's room on every socket. Every replica
 * follows the chat log and runs this for the same change, so each acts on its own sockets
 * (`io.local`); together that covers the cluster without a broadcast through Redis. Delivery
 * itself goes by the membership map, which has already dropped the member: from this event on,
 * no message, edit or reaction of the group reaches them.
 */
export const announceGroupChange = (io: RealtimeServer, change: MembershipChange): void => {
  if (!change.isGroup && !change.settingChanged) return;
  if (change.removed.length) io.local.in(change.removed.map(userRoom)).socketsLeave(chatRoom(change.chatId));
  const told = [...new Set([...change.previous, ...change.added])];
  io.local.to(told.map(userRoom)).emit('chat updated', { chatId: change.chatId });
};
