export { start } from './service.ts';
