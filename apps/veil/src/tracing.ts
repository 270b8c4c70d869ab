import { AsyncLocalStorage } from 'node:async_hooks';
import { randomFillSync } from 'node:crypto';
import type { Tracing } from '@veil/ports';

interface TraceContext {
  traceId: string;
  /** This process's span: the parent id of every hop it starts. */
  spanId: string;
  flags: string;
}

/** W3C trace context, lower-case hex only; version ff is invalid, later versions may append fields. */
const traceparentPattern = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const traceIdPattern = /^[0-9a-f]{32}$/;
const allZeros = /^0+$/;

/**
 * Random ids drawn from a pool refilled 4 KB at a time: every socket send and every delivery
 * starts a trace, and one `randomBytes` call per id (a call into OpenSSL each) was 5 % of the
 * embedded process's main thread at 2,000 sends/s.
 */
const pool = Buffer.alloc(4096);
let used = pool.length;
const randomHex = (bytes: number) => {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += bytes;
  return pool.toString('hex', used - bytes, used);
};

/** The trace a parent names, or null when it names none that is valid. */
export const parseTraceParent = (parent: string | undefined): { traceId: string; flags: string } | null => {
  if (!parent) return null;
  const value = parent.trim();
  if (traceIdPattern.test(value)) return allZeros.test(value) ? null : { traceId: value, flags: '01' };
  const match = traceparentPattern.exec(value);
  if (!match) return null;
  const [, version, traceId, parentId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (allZeros.test(traceId) || allZeros.test(parentId)) return null;
  return { traceId, flags };
};

/**
 * Tracing over AsyncLocalStorage: the trace follows every promise and callback started inside
 * `run`, so log lines and outgoing calls made anywhere below a request find it without passing it.
 */
export const createTracing = (): Tracing => {
  const storage = new AsyncLocalStorage<TraceContext>();
  return {
    run(parent, work) {
      const parsed = parseTraceParent(parent);
      return storage.run(
        { traceId: parsed?.traceId ?? randomHex(16), spanId: randomHex(8), flags: parsed?.flags ?? '01' },
        work,
      );
    },
    traceId: () => storage.getStore()?.traceId,
    traceparent() {
      const context = storage.getStore();
      return context && `00-${context.traceId}-${context.spanId}-${context.flags}`;
    },
  };
};
