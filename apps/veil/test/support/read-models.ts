/** The collections the services keep their read models in. */
export const serviceReadModels = [
  'user_directory',
  'user_key_logs',
  'chat_chats',
  'chat_participants',
  'message_timeline',
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
] as const;

/** ...and the projections' own: their checkpoints and the events they parked. */
export const everyReadModel = [...serviceReadModels, '_checkpoints', '_parked'] as const;
