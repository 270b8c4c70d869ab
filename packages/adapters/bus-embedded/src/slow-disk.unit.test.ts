import { describe, expect, it } from 'vitest';
import type { Logger } from '@veil/ports';
import { slowDiskReporter } from './slow-disk.ts';

describe('slow disk reporter', () => {
  it('warns at once, then at most once a minute with what it held back', () => {
    const warnings: unknown[] = [];
    const log = { warn: (fields: unknown) => warnings.push(fields) } as unknown as Logger;
    let clock = 1_000_000;
    const report = slowDiskReporter(log, 60_000, () => clock);
    report('message', 120, 3);
    report('message', 400, 90);
    clock += 30_000;
    report('message', 150, 5);
    expect(warnings).toEqual([{ context: 'message', slowWrites: 1, worstMs: 120, eventsInLast: 3 }]);
    clock += 30_000;
    report('chat', 110, 1);
    expect(warnings.at(-1)).toEqual({ context: 'chat', slowWrites: 3, worstMs: 400, eventsInLast: 1 });
    expect(warnings).toHaveLength(2);
  });
});
