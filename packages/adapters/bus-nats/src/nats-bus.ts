import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import {
  DomainError,
  contextSubjects,
  eventSubject,
  isValidStreamId,
  jetStreamName,
  type DomainEvent,
} from '@veil/contracts';
import type { EventBus, Logger, RecordedEvent, Subscription } from '@veil/ports';
import { onReconnect, untilConnected, type NatsConnection } from './connection.ts';
import { ensureStream } from './provisioning.ts';

export interface NatsBusOptions {
  connection: NatsConnection;
  /** Subject and stream prefix: `<prefix>.evt.<context>.<streamId>` in stream `<PREFIX>_<CONTEXT>`. */
  prefix: string;
  log: Logger;
  /** Deliveries of one event to a durable consumer before it is terminated. Default 10. */
  maxDeliveries?: number;
  replicas?: number;
  /** Told of every publish once JetStream has answered: how long it took, whether it stored the event. */
  onPublish?(context: string, milliseconds: number, stored: boolean): void;
}

/** JetStream's answer to deleting a message that cannot be deleted, with the reason in its text. */
const messageDeleteFailed = 10057;
const nothingThere = /no message found|store EOF/i;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const NANOS_PER_MS = 1_000_000;

/**
 * How long one pull request lives on the server. After a NATS restart the server has forgotten
 * the open pulls; the client notices through missed heartbeats (half this) and then checks the
 * consumer with a backoff capped at this value. nats.js' default, 30 s, left consumers idle for
 * 21-44 s after a restart; 5 s brings them back within a few seconds, for one small request per
 * consumer every 5 s when idle.
 */
const PULL_EXPIRES_MS = 5_000;
/** How long an append waits for a dropped connection to come back before it is refused. */
const PUBLISH_WAIT_MS = 5_000;

/**
 * The EventBus port over NATS JetStream: appends are publishes with the expected last subject
 * sequence and the event id as message id; durable subscriptions are shared pull consumers with
 * explicit acks; `follow` is an ordered consumer from a position.
 */
export const createNatsBus = async (options: NatsBusOptions): Promise<EventBus> => {
  const { connection, prefix, log } = options;
  const jsm = await jetstreamManager(connection);
  const js = jetstream(connection);
  const provisioned = new Map<string, Promise<void>>();
  const subscriptions = new Set<Subscription>();
  const maxDeliveries = options.maxDeliveries ?? 10;

  const streamOf = async (context: string) => {
    let ready = provisioned.get(context);
    if (!ready) {
      ready = ensureStream(jsm, prefix, context, options.replicas);
      provisioned.set(context, ready);
      ready.catch(() => provisioned.delete(context));
    }
    await ready;
    return jetStreamName(prefix, context);
  };

  const decode = (context: string, position: number, data: Uint8Array): RecordedEvent => ({
    context,
    position,
    event: JSON.parse(new TextDecoder().decode(data)) as DomainEvent,
  });

  const track = (subscription: Subscription): Subscription => {
    subscriptions.add(subscription);
    return {
      async stop() {
        subscriptions.delete(subscription);
        await subscription.stop();
      },
    };
  };

  return {
    async append(context, event, appendOptions = {}) {
      if (!isValidStreamId(event.streamId))
        throw new DomainError('VALIDATION_FAILED', `Invalid stream id: ${event.streamId}`);
      await streamOf(context);
      try {
        await untilConnected(connection, PUBLISH_WAIT_MS);
        const published = performance.now();
        let stored = false;
        try {
          const ack = await js.publish(eventSubject(prefix, context, event.streamId), JSON.stringify(event), {
            msgID: event.eventId,
            ...(appendOptions.expectedVersion !== undefined
              ? { expect: { lastSubjectSequence: appendOptions.expectedVersion } }
              : {}),
          });
          stored = true;
          return { position: ack.seq, duplicate: ack.duplicate };
        } finally {
          // A refusal (a version conflict too) is a round trip to the server as well: timed as one.
          options.onPublish?.(context, performance.now() - published, stored);
        }
      } catch (error) {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence) {
          throw new DomainError(
            'VERSION_CONFLICT',
            `Stream ${event.streamId} is not at version ${appendOptions.expectedVersion}`,
          );
        }
        // A refusal (a stream limit, a full store) or no answer in time: nothing is acknowledged,
        // and a retry with the same event id is safe, so the caller is told to try again later.
        log.warn({ err: error, context, eventType: event.type }, 'JetStream did not store an append');
        throw new DomainError('UNAVAILABLE', 'The event log cannot store this right now; try again shortly');
      }
    },

    async readStream(context, streamId) {
      const stream = await streamOf(context);
      const subject = eventSubject(prefix, context, streamId);
      const events: RecordedEvent[] = [];
      // Direct gets walk the subject's messages; aggregates are short, so this stays cheap.
      for (let seq = 1; ;) {
        const message = await jsm.direct.getMessage(stream, { seq, next_by_subj: subject });
        if (!message) break;
        events.push(decode(context, message.seq, message.data));
        seq = message.seq + 1;
      }
      return { events, version: events.at(-1)?.position ?? 0 };
    },

    async readLast(context, streamId) {
      const stream = await streamOf(context);
      const message = await jsm.direct.getMessage(stream, {
        last_by_subj: eventSubject(prefix, context, streamId),
      });
      return message ? decode(context, message.seq, message.data) : null;
    },

    async headPosition(context) {
      const info = await jsm.streams.info(await streamOf(context));
      return info.state.last_seq;
    },

    async erase(context, positions) {
      const stream = await streamOf(context);
      for (const position of new Set(positions)) {
        try {
          // erase = true: JetStream overwrites the message's bytes in its store, not just its index.
          await jsm.streams.deleteMessage(stream, position, true);
        } catch (error) {
          // Already erased ("no message found") or past the end ("stream store EOF"): the outcome
          // the caller asked for. Both come as the generic delete failure, 10057.
          if (
            error instanceof JetStreamApiError &&
            error.code === messageDeleteFailed &&
            nothingThere.test(error.message)
          )
            continue;
          throw error;
        }
      }
    },

    async subscribe(subscribeOptions) {
      const stream = await streamOf(subscribeOptions.context);
      const retryDelayMs = subscribeOptions.retryDelayMs ?? 200;
      try {
        await jsm.consumers.info(stream, subscribeOptions.durable);
      } catch {
        await jsm.consumers.add(stream, {
          durable_name: subscribeOptions.durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: subscribeOptions.startAt === 'new' ? DeliverPolicy.New : DeliverPolicy.All,
          filter_subject: contextSubjects(prefix, subscribeOptions.context),
          max_deliver: maxDeliveries,
          ack_wait: 30_000 * NANOS_PER_MS,
          max_ack_pending: 1_000,
        });
      }
      const consumer = await js.consumers.get(stream, subscribeOptions.durable);
      const messages = await consumer.consume({
        max_messages: subscribeOptions.maxInFlight ?? 1,
        expires: PULL_EXPIRES_MS,
      });
      const handle = async (message: JsMsg) => {
        const recorded = decode(subscribeOptions.context, message.seq, message.data);
        try {
          await subscribeOptions.handler(recorded);
          message.ack();
        } catch (error) {
          if (message.info.deliveryCount >= maxDeliveries) {
            log.error(
              { err: error, position: recorded.position, durable: subscribeOptions.durable },
              'event failed too many times; terminated',
            );
            message.term();
          } else {
            log.warn(
              { err: error, position: recorded.position, durable: subscribeOptions.durable },
              'subscriber failed; redelivering',
            );
            message.nak(retryDelayMs);
          }
        }
      };
      const loop = (async () => {
        for await (const message of messages) await handle(message);
      })();
      return track({
        async stop() {
          await messages.close();
          await loop;
        },
      });
    },

    async follow(followOptions) {
      const stream = await streamOf(followOptions.context);
      let stopped = false;
      /** The last position the handler finished: a new consumer starts after it. */
      let handled = followOptions.afterPosition;
      const open = async () => {
        const consumer = await js.consumers.get(stream, {
          filter_subjects: contextSubjects(prefix, followOptions.context),
          ...(handled > 0
            ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: handled + 1 }
            : { deliver_policy: DeliverPolicy.All }),
        });
        const messages = await consumer.consume({ expires: PULL_EXPIRES_MS });
        const reader = { consumer, messages, retired: false, loop: Promise.resolve() };
        reader.loop = (async () => {
          for await (const message of messages) {
            // Ordered delivery: the same event is retried until it succeeds (or we stop). A
            // retired reader leaves what it still holds to its successor, which starts after
            // `handled`.
            for (;;) {
              if (stopped || reader.retired) return;
              const recorded = decode(followOptions.context, message.seq, message.data);
              try {
                await followOptions.handler(recorded);
                handled = recorded.position;
                break;
              } catch (error) {
                log.warn({ err: error, position: recorded.position }, 'follow handler failed; retrying');
                await sleep(followOptions.retryDelayMs ?? 200);
              }
            }
          }
        })();
        return reader;
      };
      let current = await open();
      /**
       * A restarted server has forgotten the ordered consumer. nats.js re-creates it but keeps
       * counting the pulls the old server forgot as pending, so the new consumer asks for a few
       * messages or none, then waits for two missed heartbeats (5 s) before it pulls again. A
       * consumer of our own, opened after the last position handled, delivers at once.
       */
      let reopening = Promise.resolve();
      const stopWatching = onReconnect(connection, () => {
        reopening = reopening.then(async () => {
          const previous = current;
          previous.retired = true;
          await previous.messages.close();
          await previous.loop;
          // Whatever nats.js re-created for it meanwhile would idle on the server until its
          // inactivity limit; removed at once instead (best effort: it may not exist).
          void Promise.resolve()
            .then(() => previous.consumer.delete())
            .catch(() => undefined);
          for (let attempt = 0; !stopped; attempt++) {
            try {
              current = await open();
              return;
            } catch (error) {
              log.warn({ err: error, context: followOptions.context }, 'could not reopen a follow; retrying');
              await sleep(Math.min(1_000, 50 * 2 ** attempt));
            }
          }
        });
      });
      return track({
        async stop() {
          stopped = true;
          stopWatching();
          await reopening;
          await current.messages.close();
          await current.loop;
        },
      });
    },

    async close() {
      await Promise.all([...subscriptions].map((s) => s.stop()));
      subscriptions.clear();
    },
  };
};
