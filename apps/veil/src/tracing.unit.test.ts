import { describe, expect, it } from 'vitest';
import { createTracing, parseTraceParent } from './tracing.ts';

describe('trace context', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';

  it('reads the trace id and flags of a W3C traceparent, or of a bare trace id', () => {
    expect(parseTraceParent(`00-${traceId}-00f067aa0ba902b7-01`)).toEqual({ traceId, flags: '01' });
    expect(parseTraceParent(`00-${traceId}-00f067aa0ba902b7-00`)).toEqual({ traceId, flags: '00' });
    expect(parseTraceParent(traceId)).toEqual({ traceId, flags: '01' });
    // A later version may append fields; version 00 may not.
    expect(parseTraceParent(`01-${traceId}-00f067aa0ba902b7-01-more`)).toEqual({ traceId, flags: '01' });
  });

  it('refuses what the W3C spec calls invalid', () => {
    for (const bad of [
      undefined,
      '',
      'not-a-trace',
      `ff-${traceId}-00f067aa0ba902b7-01`,
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`,
      `00-${traceId}-00f067aa0ba902b7-01-more`,
      '0'.repeat(32),
    ]) {
      expect(parseTraceParent(bad), String(bad)).toBeNull();
    }
  });

  it('keeps the trace across awaits inside run, and hands on a traceparent with a span of its own', async () => {
    const tracing = createTracing();
    expect(tracing.traceId()).toBeUndefined();
    const seen = await tracing.run(`00-${traceId}-00f067aa0ba902b7-01`, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { id: tracing.traceId(), parent: tracing.traceparent() };
    });
    expect(seen.id).toBe(traceId);
    expect(seen.parent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    expect(seen.parent).not.toContain('00f067aa0ba902b7');
    expect(tracing.traceId()).toBeUndefined();
  });

  it('starts a new trace when there is none to continue', () => {
    const tracing = createTracing();
    const [a, b] = [
      tracing.run(undefined, () => tracing.traceId()),
      tracing.run('junk', () => tracing.traceId()),
    ];
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(b).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});
