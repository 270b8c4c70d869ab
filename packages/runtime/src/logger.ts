import { pino } from 'pino';
import type { Logger } from '@veil/ports';
import type { VeilConfig } from './config.ts';

/** JSON logs (pino): fast, structured, and redacting anything that looks like a secret. */
export const createLogger = (config: Pick<VeilConfig, 'LOG_LEVEL' | 'INSTANCE_ID'>): Logger =>
  pino({
    level: config.LOG_LEVEL,
    base: { instance: config.INSTANCE_ID },
    redact: {
      paths: [
        'password',
        '*.password',
        'refreshToken',
        '*.refreshToken',
        'authorization',
        '*.authorization',
        'token',
      ],
      censor: '[redacted]',
    },
  }) as unknown as Logger;
