/** The notifications feature's public entry point: other features import it only from here. */
export { MuteButton } from './mute-button.tsx';
export { useNotificationSettings } from './notification-settings.ts';
