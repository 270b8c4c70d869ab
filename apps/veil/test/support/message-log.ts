import type { RecordedEvent } from '@veil/ports';
import { expect } from 'vitest';
import type { TestVeil } from './test-veil.ts';

/** The whole message log, as JSON, as any reader of it (a replay, a new replica) would see it. */
export const wholeMessageLog = async (veil: TestVeil): Promise<string> => {
  const events: RecordedEvent[] = [];
  const head = await veil.ports.bus.headPosition('message');
  const following = await veil.ports.bus.follow({
    context: 'message',
    afterPosition: 0,
    handler: (recorded) => void events.push(recorded),
  });
  await expect.poll(() => events.at(-1)?.position).toBe(head);
  await following.stop();
  return JSON.stringify(events);
};
