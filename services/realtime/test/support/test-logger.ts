import type { Logger } from '@veil/ports';

/** Quiet in tests; `VEIL_TEST_LOG=1` prints warnings and errors (debug/info too with `=debug`). */
export const testLogger = (bindings: Record<string, unknown> = {}): Logger => {
  const level = process.env.VEIL_TEST_LOG;
  const print =
    (name: string, enabled: boolean) =>
    (obj: object | string, msg?: string): void => {
      if (!enabled) return;
      const fields = typeof obj === 'string' ? { msg: obj } : { ...obj, msg };
      console.error(
        JSON.stringify({ level: name, ...bindings, ...fields }, (_k, v: unknown) =>
          v instanceof Error ? { message: v.message, stack: v.stack } : v,
        ),
      );
    };
  return {
    debug: print('debug', level === 'debug'),
    info: print('info', level === 'debug'),
    warn: print('warn', Boolean(level)),
    error: print('error', Boolean(level)),
    child: (more) => testLogger({ ...bindings, ...more }),
  };
};
