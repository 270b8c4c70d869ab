import { describe, expect, it } from 'vitest';
import { createProgress } from './progress.ts';

/** A clock the test moves, and an output that keeps what is written. */
const setUp = (isTTY: boolean) => {
  let time = 0;
  const written: string[] = [];
  const out = { isTTY, columns: 120, write: (text: string) => written.push(text) };
  const progress = createProgress(out, 'message (message_timeline)', 1_000_000, () => time);
  return { progress, written, advance: (ms: number) => (time += ms) };
};

describe('progress', () => {
  it('redraws one bar in place on a terminal, at most every 100 ms, and ends the line', () => {
    const { progress, written, advance } = setUp(true);
    advance(1_000);
    progress.update(250_000);
    advance(50);
    progress.update(260_000); // too soon: not drawn
    advance(950);
    progress.update(500_000);
    progress.finish();
    expect(written).toHaveLength(4);
    expect(written[0]).toMatch(
      /^\rmessage \(message_timeline\) \[#+-+\] {2}25% {2}250,000\/1,000,000 events {2}250,000\/s/,
    );
    expect(written[1]).toMatch(/\[#{15}-{15}\] {2}50% {2}500,000\/1,000,000 events {2}250,000\/s/);
    expect(written[2]).toMatch(/\[#{30}\] 100% {2}1,000,000\/1,000,000 events/);
    expect(written[3]).toBe('  2.0 s\n');
    expect(written.slice(0, 3).join('')).not.toContain('\n');
  });

  it('writes plain lines elsewhere: at each tenth, or every 5 s when slower', () => {
    const { progress, written, advance } = setUp(false);
    for (let done = 10_000; done < 300_000; done += 10_000) {
      advance(100);
      progress.update(done);
    }
    advance(6_000);
    progress.update(305_000);
    progress.finish();
    expect(written).toEqual([
      'message (message_timeline): 100,000/1,000,000 events (10%)\n',
      'message (message_timeline): 200,000/1,000,000 events (20%)\n',
      'message (message_timeline): 305,000/1,000,000 events (30%)\n',
      'message (message_timeline): 1,000,000 events in 8.9 s\n',
    ]);
  });
});
