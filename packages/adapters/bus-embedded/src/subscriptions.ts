import type {
  DurableSubscriptionOptions,
  FollowOptions,
  Logger,
  RecordedEvent,
  Subscription,
} from '@veil/ports';
import type { ContextLog } from './event-log.ts';

/**
 * Delivery with JetStream's semantics, in process. `follow` is an ordered consumer: one cursor,
 * the same event retried until its handler succeeds. A durable group is a shared consumer: each
 * event goes to one member, is acknowledged when the handler resolves, and comes back after a
 * delay when it throws, until `maxDeliveries` (then it is logged and dropped, like `term`).
 * Both read the log from disk by position, a page at a time, so a follower far behind the head
 * holds one page in memory, not the log.
 */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Events a follower reads from the log at a time. */
const pageSize = 256;

export const followLog = (log: ContextLog, options: FollowOptions, logger: Logger): Subscription => {
  let cursor = options.afterPosition;
  let stopped = false;
  let wake: (() => void) | null = null;
  const unsubscribe = log.onDurable(() => wake?.());

  let page: RecordedEvent[] = [];
  const loop = (async () => {
    while (!stopped) {
      if (!page.length && cursor >= log.durableHead()) {
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
        continue;
      }
      let recorded: RecordedEvent;
      try {
        if (!page.length) {
          const head = log.durableHead();
          page = log.readAfter(cursor, pageSize);
          // Nothing left to deliver up to the head: every event there is erased.
          if (!page.length) {
            cursor = head;
            continue;
          }
        }
        recorded = page[0]!;
        await options.handler(recorded);
        page.shift();
        cursor = recorded.position;
      } catch (error) {
        logger.warn(
          { err: error, context: options.context, position: cursor + 1 },
          'follow handler failed; retrying',
        );
        await sleep(options.retryDelayMs ?? 200);
      }
    }
  })();

  return {
    async stop() {
      stopped = true;
      unsubscribe();
      wake?.();
      await loop;
    },
  };
};

interface Delivery {
  recorded: RecordedEvent;
  attempts: number;
}

interface Member {
  handler: (recorded: RecordedEvent) => Promise<void> | void;
  maxInFlight: number;
  inFlight: Set<Promise<void>>;
}

export interface DurableGroup {
  join(options: DurableSubscriptionOptions): Subscription;
}

export const createDurableGroup = (
  log: ContextLog,
  startAt: 'beginning' | 'new',
  logger: Logger,
  maxDeliveries: number,
): DurableGroup => {
  let cursor = startAt === 'new' ? log.durableHead() : 0;
  const redeliveries: Delivery[] = [];
  const members: Member[] = [];
  let turn = 0;
  let retryDelayMs = 200;

  const next = (): Delivery | undefined => {
    const again = redeliveries.shift();
    if (again) return again;
    const head = log.durableHead();
    if (cursor >= head) return undefined;
    const [recorded] = log.readAfter(cursor, 1);
    // None: every event up to the head is erased.
    cursor = recorded?.position ?? head;
    return recorded && { recorded, attempts: 0 };
  };

  const freeMember = (): Member | undefined => {
    for (let i = 0; i < members.length; i++) {
      const member = members[(turn + i) % members.length]!;
      if (member.inFlight.size < member.maxInFlight) {
        turn = (turn + i + 1) % members.length;
        return member;
      }
    }
    return undefined;
  };

  const deliver = (member: Member, delivery: Delivery) => {
    const run = (async () => {
      try {
        await member.handler(delivery.recorded);
      } catch (error) {
        delivery.attempts += 1;
        const { context, position } = delivery.recorded;
        if (delivery.attempts >= maxDeliveries) {
          logger.error({ err: error, context, position }, 'event failed too many times; dropped (term)');
        } else {
          logger.warn({ err: error, context, position }, 'subscriber failed; redelivering');
          setTimeout(() => {
            redeliveries.push(delivery);
            pump();
          }, retryDelayMs).unref();
        }
      }
    })();
    member.inFlight.add(run);
    void run.finally(() => {
      member.inFlight.delete(run);
      pump();
    });
  };

  const pump = () => {
    for (;;) {
      const member = freeMember();
      if (!member) return;
      const delivery = next();
      if (!delivery) return;
      deliver(member, delivery);
    }
  };
  log.onDurable(pump);

  return {
    join(options) {
      retryDelayMs = options.retryDelayMs ?? retryDelayMs;
      const member: Member = {
        handler: options.handler,
        maxInFlight: options.maxInFlight ?? 1,
        inFlight: new Set(),
      };
      members.push(member);
      queueMicrotask(pump);
      return {
        async stop() {
          const at = members.indexOf(member);
          if (at >= 0) members.splice(at, 1);
          await Promise.allSettled([...member.inFlight]);
        },
      };
    },
  };
};
