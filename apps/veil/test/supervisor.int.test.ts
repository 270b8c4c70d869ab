import { describe, expect, it } from 'vitest';
import { supervise } from '../src/bin/supervisor.ts';

describe('the cluster supervisor', () => {
  it('restarts a crashing process with a doubling delay up to its cap, and stops it on request', async () => {
    const said: string[] = [];
    const cluster = supervise(
      [{ name: 'crasher', command: process.execPath, args: ['-e', 'process.exit(3)'], env: process.env }],
      { firstDelayMs: 20, maxDelayMs: 80, say: (line) => said.push(line) },
    );
    await expect
      .poll(() => said.filter((l) => l.includes('restarting')).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(5);
    await cluster.stop();
    const delays = said.filter((l) => l.includes('restarting')).map((l) => /in ([\d.]+) s/.exec(l)![1]);
    expect(delays.slice(0, 5)).toEqual(['0.02', '0.04', '0.08', '0.08', '0.08']);
    expect(said[0]).toMatch(/^crasher \| started \(pid \d+\)$/);
    expect(said[1]).toBe('crasher | exited (code 3); restarting in 0.02 s');
    const count = said.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(said.length).toBe(count);
  });

  it('starts the delay over for a process that ran long enough before it died', async () => {
    const said: string[] = [];
    const cluster = supervise(
      [
        {
          name: 'slow',
          command: process.execPath,
          args: ['-e', 'setTimeout(() => process.exit(1), 100)'],
          env: process.env,
        },
      ],
      { firstDelayMs: 10, stableAfterMs: 50, say: (line) => said.push(line) },
    );
    await expect
      .poll(() => said.filter((l) => l.includes('restarting')).length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    await cluster.stop();
    expect(said.filter((l) => l.includes('restarting')).slice(0, 3)).toEqual([
      'slow | exited (code 1); restarting in 0.01 s',
      'slow | exited (code 1); restarting in 0.01 s',
      'slow | exited (code 1); restarting in 0.01 s',
    ]);
  });
});
