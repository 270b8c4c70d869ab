import { pino } from 'pino';
import pretty from 'pino-pretty';
import type { Logger, Tracing } from '@veil/ports';
import type { VeilConfig } from './config.ts';

/**
 * JSON lines for log collectors, readable lines for a person at a terminal. LOG_FORMAT=auto (the
 * default) decides by whether stdout is a terminal; production sets `json` so that a container
 * given a TTY still logs JSON.
 */
export const logFormat = (format: VeilConfig['LOG_FORMAT'], stdoutIsTerminal: boolean): 'json' | 'pretty' =>
  format === 'auto' ? (stdoutIsTerminal ? 'pretty' : 'json') : format;

/**
 * One line an entry: time, level, `[service]` and the message, then any other fields as JSON.
 * Synchronous, so nothing is lost when the process exits right after logging.
 */
const readableLines = () =>
  pretty({
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,instance,service',
    messageFormat: '{if service}[{service}] {end}{msg}',
  });

/**
 * pino: fast, structured, and redacting anything that looks like a secret. A line written inside
 * a trace (a request, an RPC call it made, an event it caused) carries its `traceId`.
 */
export const createLogger = (
  config: Pick<VeilConfig, 'LOG_LEVEL' | 'LOG_FORMAT' | 'INSTANCE_ID'>,
  tracing?: Pick<Tracing, 'traceId'>,
): Logger =>
  pino(
    {
      level: config.LOG_LEVEL,
      base: { instance: config.INSTANCE_ID },
      ...(tracing && {
        mixin: () => {
          const traceId = tracing.traceId();
          return traceId ? { traceId } : {};
        },
      }),
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
    },
    logFormat(config.LOG_FORMAT, process.stdout.isTTY === true) === 'pretty' ? readableLines() : undefined,
  ) as unknown as Logger;
