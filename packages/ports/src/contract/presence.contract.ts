import { describe, expect, it } from 'vitest';
import { withFixture } from './fixture.ts';
import type { PresenceStore } from '../realtime-scaling.port.ts';

/**
 * The presence contract, run by the memory store and by the Redis one. `replicas` are the
 * stores of two realtime replicas sharing presence; the memory adapter, which serves one replica
 * alone, runs the single-replica cases only.
 */
export interface PresenceUnderTest {
  replicas: PresenceStore[];
  teardown(): Promise<void>;
}

let userCounter = 0;
const someone = () => `user${Date.now().toString(36)}${(userCounter++).toString(36)}`;

export const describePresenceContract = (
  name: string,
  make: () => Promise<PresenceUnderTest>,
  { sharedByReplicas }: { sharedByReplicas: boolean },
) => {
  describe(`Presence contract: ${name}`, () => {
    const withStores = (body: (replicas: PresenceStore[]) => Promise<void>) =>
      withFixture(make, ({ replicas }) => body(replicas));

    it(
      'reports the first connect and the last disconnect only',
      withStores(async ([store]) => {
        const alice = someone();
        const bob = someone();
        expect(await store!.connect(alice)).toBe(true);
        expect(await store!.connect(alice)).toBe(false);
        expect(await store!.onlineAmong([alice, bob])).toEqual([alice]);
        expect(await store!.disconnect(alice)).toBe(false);
        expect(await store!.disconnect(alice)).toBe(true);
        expect(await store!.onlineAmong([alice])).toEqual([]);
      }),
    );

    it(
      'does not go below zero or announce on a stray disconnect',
      withStores(async ([store]) => {
        const ghost = someone();
        expect(await store!.disconnect(ghost)).toBe(false);
        expect(await store!.connect(ghost)).toBe(true);
      }),
    );

    it.runIf(sharedByReplicas)(
      `counts a user online while any replica holds a socket of theirs${
        sharedByReplicas ? '' : " (skipped: this store is one replica's own, nothing to share)"
      }`,
      withStores(async (replicas) => {
        const [one, two] = replicas as [PresenceStore, PresenceStore];
        const carol = someone();
        expect(await one.connect(carol)).toBe(true);
        expect(await two.connect(carol)).toBe(false);
        expect(await one.disconnect(carol)).toBe(false);
        expect(await two.onlineAmong([carol])).toEqual([carol]);
        expect(await two.disconnect(carol)).toBe(true);
        expect(await one.onlineAmong([carol])).toEqual([]);
      }),
    );
  });
};
