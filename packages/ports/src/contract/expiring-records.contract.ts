import { describe, expect, it } from 'vitest';
import { withFixture } from './fixture.ts';
import type { ExpiringRecords } from '../realtime-scaling.port.ts';

/**
 * The shared-records contract, run by the memory adapter and by the Redis one. `replicas` are two
 * replicas' views of the same namespace (the memory adapter, for one replica alone, gives one).
 */
export interface RecordsUnderTest {
  replicas: ExpiringRecords[];
  teardown(): Promise<void>;
}

let counter = 0;
const someKey = () => `k${Date.now().toString(36)}${(counter++).toString(36)}`;

export const describeExpiringRecordsContract = (name: string, make: () => Promise<RecordsUnderTest>) => {
  describe(`ExpiringRecords contract: ${name}`, () => {
    const withRecords = (body: (replicas: ExpiringRecords[]) => Promise<void>) =>
      withFixture(make, ({ replicas }) => body(replicas));

    it(
      'creates once, reads with a version, replaces only at the version read',
      withRecords(async (replicas) => {
        const [first, other = first] = replicas as [ExpiringRecords, ExpiringRecords?];
        const key = someKey();
        expect(await first.read(key)).toBeNull();
        expect(await first.create(key, 'one', 60_000)).toBe(true);
        expect(await other.create(key, 'again', 60_000)).toBe(false);
        expect(await other.read(key)).toEqual({ value: 'one', version: 1 });
        expect(await other.replace(key, 1, 'two')).toBe(true);
        // The first replica decided on version 1 too: it loses and must read again.
        expect(await first.replace(key, 1, 'stale')).toBe(false);
        expect(await first.read(key)).toEqual({ value: 'two', version: 2 });
        expect(await first.replace(someKey(), 1, 'nothing there')).toBe(false);
      }),
    );

    it(
      'forgets a record when it expires, replaced or not',
      withRecords(async (replicas) => {
        const [first, other = first] = replicas as [ExpiringRecords, ExpiringRecords?];
        const key = someKey();
        expect(await first.create(key, 'short', 300)).toBe(true);
        expect(await other.replace(key, 1, 'still short')).toBe(true);
        expect(await other.read(key)).toEqual({ value: 'still short', version: 2 });
        await expect.poll(() => first.read(key), { timeout: 5_000, interval: 100 }).toBeNull();
        expect(await other.create(key, 'new', 60_000)).toBe(true);
      }),
    );

    it(
      'lets exactly one of many concurrent replaces at one version win',
      withRecords(async (replicas) => {
        const key = someKey();
        await replicas[0]!.create(key, 'open', 60_000);
        const wins = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            replicas[i % replicas.length]!.replace(key, 1, `joined by ${i}`),
          ),
        );
        expect(wins.filter(Boolean)).toHaveLength(1);
        expect((await replicas[0]!.read(key))?.value).toBe(`joined by ${wins.indexOf(true)}`);
      }),
    );
  });
};
