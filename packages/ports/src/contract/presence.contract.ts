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
        expect(await store!.disconnect(alice, Date.now())).toBe(false);
        expect(await store!.disconnect(alice, Date.now())).toBe(true);
        expect(await store!.onlineAmong([alice])).toEqual([]);
      }),
    );

    it(
      'does not go below zero, announce or record a last-seen time on a stray disconnect',
      withStores(async ([store]) => {
        const ghost = someone();
        expect(await store!.disconnect(ghost, 1_000)).toBe(false);
        expect(await store!.lastSeenAmong([ghost])).toEqual(new Map());
        expect(await store!.connect(ghost)).toBe(true);
      }),
    );

    it(
      "records the moment of a user's last disconnect as their last-seen time, and keeps it while they are back",
      withStores(async ([store]) => {
        const alice = someone();
        const never = someone();
        await store!.connect(alice);
        await store!.connect(alice);
        expect(await store!.disconnect(alice, 1_700_000_000_000)).toBe(false);
        expect(await store!.lastSeenAmong([alice])).toEqual(new Map()); // one socket is still there
        expect(await store!.disconnect(alice, 1_700_000_060_000)).toBe(true);
        expect(await store!.lastSeenAmong([alice, never])).toEqual(new Map([[alice, 1_700_000_060_000]]));
        await store!.connect(alice);
        expect(await store!.lastSeenAmong([alice])).toEqual(new Map([[alice, 1_700_000_060_000]]));
        await store!.disconnect(alice, 1_700_000_120_000);
        expect(await store!.lastSeenAmong([alice])).toEqual(new Map([[alice, 1_700_000_120_000]]));
        expect(await store!.lastSeenAmong([])).toEqual(new Map());
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
        expect(await one.disconnect(carol, 1_700_000_000_000)).toBe(false);
        expect(await two.onlineAmong([carol])).toEqual([carol]);
        expect(await two.disconnect(carol, 1_700_000_060_000)).toBe(true);
        expect(await one.onlineAmong([carol])).toEqual([]);
      }),
    );

    it.runIf(sharedByReplicas)(
      `shares last-seen times: the one recorded on one replica is read on another${
        sharedByReplicas ? '' : " (skipped: this store is one replica's own, nothing to share)"
      }`,
      withStores(async (replicas) => {
        const [one, two] = replicas as [PresenceStore, PresenceStore];
        const dave = someone();
        await one.connect(dave);
        await two.connect(dave);
        // Leaving one replica while the other holds a socket is no departure.
        await one.disconnect(dave, 1_700_000_000_000);
        expect(await two.lastSeenAmong([dave])).toEqual(new Map());
        await two.disconnect(dave, 1_700_000_060_000);
        expect(await one.lastSeenAmong([dave])).toEqual(new Map([[dave, 1_700_000_060_000]]));
      }),
    );
  });
};
