import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '@veil/contracts';
import type { EventBus, RecordedEvent } from '../event-store.port.ts';
import type { Rpc } from '../rpc.port.ts';

/**
 * The event-bus contract: every EventBus adapter runs this same suite (the embedded log and
 * NATS JetStream), so both keep one set of semantics. A factory gives each test a fresh bus
 * (fresh directory or random subject prefix) and a teardown.
 */
export interface BusUnderTest {
  bus: EventBus;
  /** A second bus over the same log, as another process would have. */
  reopen?: () => Promise<EventBus>;
  teardown(): Promise<void>;
}

let seq = 0;
const uid = () =>
  `${Date.now().toString(36)}${(seq++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;

/** The payload `testEvent` was given, read back from an event a typed log hands over. */
export const testData = <T>(event: { data: unknown }): T => event.data as T;

export const testEvent = (
  streamId: string,
  data: Record<string, unknown> = {},
  type = 'Happened',
): DomainEvent => ({
  type,
  data,
  streamId,
  eventId: uid(),
  occurredAt: new Date().toISOString(),
  schemaVersion: 1,
});

/** Resolves once `predicate` holds, polling; rejects after `timeoutMs` with `what`. */
const until = async (predicate: () => boolean, what: string, timeoutMs = 10_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

const withBus =
  (make: () => Promise<BusUnderTest>, body: (bus: EventBus, subject: BusUnderTest) => Promise<void>) =>
  async () => {
    const subject = await make();
    try {
      await body(subject.bus, subject);
    } finally {
      await subject.teardown();
    }
  };

export const describeEventBusContract = (name: string, make: () => Promise<BusUnderTest>) => {
  describe(`EventBus contract: ${name}`, () => {
    it(
      'appends, reads a stream back in order, its last event and the head position',
      withBus(make, async (bus) => {
        expect(await bus.headPosition('chat')).toBe(0);
        expect(await bus.readLast('chat', 's-1')).toBeNull();
        const first = await bus.append('chat', testEvent('s-1', { n: 1 }));
        await bus.append('chat', testEvent('s-2', { n: 2 }));
        const third = await bus.append('chat', testEvent('s-1', { n: 3 }));
        expect(third.position).toBeGreaterThan(first.position);
        const { events, version } = await bus.readStream('chat', 's-1');
        expect(events.map((e) => e.event.data)).toEqual([{ n: 1 }, { n: 3 }]);
        expect(version).toBe(third.position);
        expect((await bus.readLast('chat', 's-1'))?.event.data).toEqual({ n: 3 });
        expect(await bus.headPosition('chat')).toBe(third.position);
        expect(await bus.headPosition('user')).toBe(0);
      }),
    );

    it(
      'appends with an expected version, and refuses a stale one with VERSION_CONFLICT',
      withBus(make, async (bus) => {
        const first = await bus.append('chat', testEvent('s-v'), { expectedVersion: 0 });
        await expect(bus.append('chat', testEvent('s-v'), { expectedVersion: 0 })).rejects.toMatchObject({
          code: 'VERSION_CONFLICT',
        });
        const second = await bus.append('chat', testEvent('s-v'), { expectedVersion: first.position });
        expect((await bus.readStream('chat', 's-v')).version).toBe(second.position);
      }),
    );

    it(
      'lets exactly one of many racing appends with the same expected version win',
      withBus(make, async (bus) => {
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, () => bus.append('user', testEvent('claim-x'), { expectedVersion: 0 })),
        );
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
        expect((await bus.readStream('user', 'claim-x')).events).toHaveLength(1);
      }),
    );

    it(
      'stores an event id once, however often it is appended',
      withBus(make, async (bus) => {
        const event = testEvent('s-d');
        const a = await bus.append('chat', event);
        const b = await bus.append('chat', event);
        expect(a).toEqual({ position: a.position, duplicate: false });
        expect(b).toEqual({ position: a.position, duplicate: true });
        expect((await bus.readStream('chat', 's-d')).events).toHaveLength(1);
      }),
    );

    it(
      'keeps refusing an event id for good when it says so: after an erasure and in another process',
      withBus(make, async (bus, subject) => {
        if (!bus.deduplicatesForever) return; // JetStream: only within its duplicate window
        const event = testEvent('s-forever');
        const { position } = await bus.append('chat', event);
        await bus.erase('chat', [position]);
        expect(await bus.append('chat', event)).toEqual({ position, duplicate: true });
        const other = await subject.reopen?.();
        if (other) expect(await other.append('chat', event)).toEqual({ position, duplicate: true });
      }),
    );

    it(
      'answers a retried event id with the stored position, even on another stream with an expected version',
      withBus(make, async (bus) => {
        // An idempotent command's retry: same event id, but a fresh aggregate id (a new message
        // id), so the expected version holds and only the event id says it is a repeat.
        const original = testEvent('msg-first');
        const retry = { ...original, streamId: 'msg-second' };
        const [a, b] = await Promise.all([
          bus.append('message', original, { expectedVersion: 0 }),
          bus.append('message', retry, { expectedVersion: 0 }),
        ]);
        expect(b).toEqual({ position: a.position, duplicate: true });
        expect(await bus.headPosition('message')).toBe(a.position);
        expect((await bus.readStream('message', 'msg-second')).events).toHaveLength(0);
      }),
    );

    it(
      'keeps every event when the log is opened again',
      withBus(make, async (bus, subject) => {
        if (!subject.reopen) return;
        for (let i = 0; i < 5; i++) await bus.append('message', testEvent(`m-${i % 2}`, { i }));
        const again = await subject.reopen();
        try {
          expect(await again.headPosition('message')).toBe(5);
          expect((await again.readStream('message', 'm-0')).events.map((e) => e.event.data)).toEqual([
            { i: 0 },
            { i: 2 },
            { i: 4 },
          ]);
        } finally {
          await again.close();
        }
      }),
    );

    it(
      'erases events for good: reads, follows, groups and a reopened log skip them; the rest keep their positions',
      withBus(make, async (bus, subject) => {
        const sent = await bus.append('message', testEvent('e-1', { secret: 'first' }));
        const kept = await bus.append('message', testEvent('e-2', { i: 2 }));
        const edited = await bus.append('message', testEvent('e-1', { secret: 'second' }));
        const deleted = await bus.append('message', testEvent('e-1', { deleted: true }));
        await bus.erase('message', [sent.position, edited.position]);
        await bus.erase('message', [sent.position, deleted.position + 100]); // already gone, never there

        const read = async (from: EventBus) => {
          const { events, version } = await from.readStream('message', 'e-1');
          expect(events.map((e) => e.event.data)).toEqual([{ deleted: true }]);
          expect(version).toBe(deleted.position);
          expect((await from.readLast('message', 'e-1'))?.position).toBe(deleted.position);
        };
        await read(bus);
        expect(await bus.headPosition('message')).toBe(deleted.position);

        const followed: number[] = [];
        const grouped: number[] = [];
        const subs = [
          await bus.follow({
            context: 'message',
            afterPosition: 0,
            handler: (r) => void followed.push(r.position),
          }),
          await bus.subscribe({
            durable: 'after-erase',
            context: 'message',
            startAt: 'beginning',
            handler: (r) => void grouped.push(r.position),
          }),
        ];
        const next = await bus.append('message', testEvent('e-3'));
        await until(() => followed.includes(next.position) && grouped.includes(next.position), 'delivery');
        expect(followed).toEqual([kept.position, deleted.position, next.position]);
        expect(grouped).toEqual([kept.position, deleted.position, next.position]);
        await Promise.all(subs.map((s) => s.stop()));

        if (!subject.reopen) return;
        const again = await subject.reopen();
        try {
          await read(again);
          expect((await again.append('message', testEvent('e-4'))).position).toBe(next.position + 1);
        } finally {
          await again.close();
        }
      }),
    );

    it(
      'follow replays from a position in order, then stays live',
      withBus(make, async (bus) => {
        const appended = [];
        for (let i = 1; i <= 4; i++) appended.push(await bus.append('chat', testEvent(`f-${i}`, { i })));
        const seen: number[] = [];
        const sub = await bus.follow({
          context: 'chat',
          afterPosition: appended[1]!.position,
          handler: (r) => void seen.push(r.event.data as never),
        });
        await until(() => seen.length === 2, 'replay');
        await bus.append('chat', testEvent('f-5', { i: 5 }));
        await until(() => seen.length === 3, 'live event');
        expect(seen).toEqual([{ i: 3 }, { i: 4 }, { i: 5 }]);
        await sub.stop();
      }),
    );

    it(
      'follow retries a failing handler with the same event, keeping order',
      withBus(make, async (bus) => {
        await bus.append('chat', testEvent('r-1', { i: 1 }));
        await bus.append('chat', testEvent('r-2', { i: 2 }));
        const calls: number[] = [];
        let failures = 2;
        const sub = await bus.follow({
          context: 'chat',
          afterPosition: 0,
          retryDelayMs: 10,
          handler: (r) => {
            const i = (r.event.data as { i: number }).i;
            calls.push(i);
            if (i === 1 && failures-- > 0) throw new Error('transient');
          },
        });
        await until(() => calls.includes(2), 'second event');
        expect(calls).toEqual([1, 1, 1, 2]);
        await sub.stop();
      }),
    );

    it(
      'a durable group hands each event to one member; two groups each get every event',
      withBus(make, async (bus) => {
        const byMember: Record<string, number[]> = { a: [], b: [], other: [] };
        const record = (key: string) => (r: RecordedEvent) => void byMember[key]!.push(r.position);
        const subs = [
          await bus.subscribe({
            durable: 'g1',
            context: 'message',
            startAt: 'beginning',
            handler: record('a'),
          }),
          await bus.subscribe({
            durable: 'g1',
            context: 'message',
            startAt: 'beginning',
            handler: record('b'),
          }),
          await bus.subscribe({
            durable: 'g2',
            context: 'message',
            startAt: 'beginning',
            handler: record('other'),
          }),
        ];
        for (let i = 0; i < 20; i++) await bus.append('message', testEvent(`d-${i}`));
        await until(
          () => byMember.a!.length + byMember.b!.length === 20 && byMember.other!.length === 20,
          'deliveries',
        );
        const shared = [...byMember.a!, ...byMember.b!].sort((x, y) => x - y);
        expect(new Set(shared).size).toBe(20);
        expect(byMember.other).toEqual([...byMember.other!].sort((x, y) => x - y));
        await Promise.all(subs.map((s) => s.stop()));
      }),
    );

    it(
      "startAt 'new' skips what was there; 'beginning' gets it",
      withBus(make, async (bus) => {
        await bus.append('chat', testEvent('old'));
        const fresh: string[] = [];
        const all: string[] = [];
        const subs = [
          await bus.subscribe({
            durable: 'fresh',
            context: 'chat',
            startAt: 'new',
            handler: (r) => void fresh.push(r.event.streamId),
          }),
          await bus.subscribe({
            durable: 'all',
            context: 'chat',
            startAt: 'beginning',
            handler: (r) => void all.push(r.event.streamId),
          }),
        ];
        await until(() => all.length === 1, 'old event');
        await bus.append('chat', testEvent('new'));
        await until(() => fresh.length === 1 && all.length === 2, 'new event');
        expect(fresh).toEqual(['new']);
        await Promise.all(subs.map((s) => s.stop()));
      }),
    );

    it(
      'redelivers an event whose handler threw',
      withBus(make, async (bus) => {
        let attempts = 0;
        const sub = await bus.subscribe({
          durable: 'retry',
          context: 'chat',
          startAt: 'beginning',
          retryDelayMs: 20,
          handler: () => {
            attempts += 1;
            if (attempts < 3) throw new Error('not yet');
          },
        });
        await bus.append('chat', testEvent('x'));
        await until(() => attempts === 3, 'third delivery');
        await sub.stop();
      }),
    );

    it(
      'stop waits for the handler in flight',
      withBus(make, async (bus) => {
        let finished = false;
        let started = false;
        const sub = await bus.subscribe({
          durable: 'slow',
          context: 'chat',
          startAt: 'beginning',
          handler: async () => {
            started = true;
            await new Promise((resolve) => setTimeout(resolve, 150));
            finished = true;
          },
        });
        await bus.append('chat', testEvent('slow'));
        await until(() => started, 'handler start');
        await sub.stop();
        expect(finished).toBe(true);
      }),
    );
  });
};

export interface RpcUnderTest {
  /** Two independent RPC endpoints on the same transport, as two processes would have. */
  rpcs: [Rpc, Rpc];
  teardown(): Promise<void>;
}

export const describeRpcContract = (name: string, make: () => Promise<RpcUnderTest>) => {
  describe(`Rpc contract: ${name}`, () => {
    const withRpc = (body: (rpcs: [Rpc, Rpc]) => Promise<void>) => async () => {
      const subject = await make();
      try {
        await body(subject.rpcs);
      } finally {
        await subject.teardown();
      }
    };

    it(
      'calls and replies, across endpoints',
      withRpc(async ([server, client]) => {
        const handle = await server.serve('echo', {
          shout: async (p) => ({ said: String((p as { text: string }).text).toUpperCase() }),
        });
        expect(await client.call('echo', 'shout', { text: 'hi' })).toEqual({ said: 'HI' });
        await handle.stop();
      }),
    );

    it(
      'carries domain error codes, and hides other errors as INTERNAL',
      withRpc(async ([server, client]) => {
        const { DomainError } = await import('@veil/contracts');
        const handle = await server.serve('fail', {
          domain: async () => {
            throw new DomainError('USERNAME_TAKEN', 'taken');
          },
          crash: async () => {
            throw new Error('secret detail');
          },
        });
        await expect(client.call('fail', 'domain', {})).rejects.toMatchObject({
          code: 'USERNAME_TAKEN',
          message: 'taken',
        });
        const crash = client.call('fail', 'crash', {});
        await expect(crash).rejects.toMatchObject({ code: 'INTERNAL' });
        await expect(crash).rejects.not.toMatchObject({ message: 'secret detail' });
        await handle.stop();
      }),
    );

    it(
      'fails with UNAVAILABLE when nobody serves, and when the server is too slow',
      withRpc(async ([server, client]) => {
        await expect(client.call('nobody', 'home', {}, { timeoutMs: 2_000 })).rejects.toMatchObject({
          code: 'UNAVAILABLE',
        });
        const handle = await server.serve('slow', {
          op: () => new Promise((resolve) => setTimeout(resolve, 1_000)),
        });
        await expect(client.call('slow', 'op', {}, { timeoutMs: 100 })).rejects.toMatchObject({
          code: 'UNAVAILABLE',
        });
        await handle.stop();
      }),
    );

    it(
      'shares calls between two servers of one service',
      withRpc(async ([a, b]) => {
        const handles = [
          await a.serve('shared', { who: async () => 'a' }),
          await b.serve('shared', { who: async () => 'b' }),
        ];
        const answers = new Set<unknown>();
        for (let i = 0; i < 40 && answers.size < 2; i++) answers.add(await a.call('shared', 'who', {}));
        expect(answers).toEqual(new Set(['a', 'b']));
        await Promise.all(handles.map((h) => h.stop()));
      }),
    );
  });
};
