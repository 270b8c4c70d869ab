import type { Logger } from '@veil/ports';

/** A logger that drops everything, for tests that start pieces without a service around them. */
export const silent: Logger = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  child: () => silent,
};
