/**
 * Notifications of new messages, in the page and by push, and their settings.
 * This file is the feature's public entry point: other features import only from here.
 */
export { MuteButton } from './mute-button.tsx';
export { useNotificationSettings } from './notification-settings.ts';
