export { start } from './service.ts';
export type { RealtimeSettings } from './settings.ts';
