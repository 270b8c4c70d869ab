import type { Ports } from '@veil/ports';

/**
 * The collections the services keep their read models in; the message timeline's only where the
 * event log does not answer it itself (it does in embedded mode: `Ports.messageTimeline`).
 */
export const serviceReadModels = (ports: Pick<Ports, 'messageTimeline'>) => [
  'user_directory',
  'user_key_logs',
  'chat_chats',
  'chat_participants',
  ...(ports.messageTimeline ? [] : ['message_timeline']),
  'message_memberships',
  'message_read_points',
  'message_receipt_settings',
  'message_blocks',
  'push_subscriptions',
  'push_sessions',
  'push_names',
  'auth_credentials',
  'auth_refresh_families',
  'auth_pending_registrations',
];

/** ...and the projections' own: their checkpoints and the events they parked. */
export const everyReadModel = (ports: Pick<Ports, 'messageTimeline'>) => [
  ...serviceReadModels(ports),
  '_checkpoints',
  '_parked',
];
