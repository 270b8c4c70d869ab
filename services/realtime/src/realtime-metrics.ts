import type { ServerToClientEvents } from '@veil/contracts';
import type { Metrics } from '@veil/ports';

export type SendResult = 'stored' | 'refused' | 'failed';

/** The socket events the fan-out emits. */
export type DeliveredEvent = Extract<
  keyof ServerToClientEvents,
  | 'message received'
  | 'update seen'
  | 'message edited'
  | 'message deleted'
  | 'message expired'
  | 'message hidden'
  | 'reaction'
>;

/** What a realtime replica counts: its sockets, the sends they make, the deliveries it emits. */
export interface RealtimeMetrics {
  /** Reads the number of sockets this replica holds whenever it is scraped; returns a stop. */
  countSockets(read: () => number): () => void;
  /** A `send message` request answered: stored, refused (a 4xx-like code) or failed (INTERNAL, UNAVAILABLE). */
  sent(result: SendResult): void;
  /** One emit of the fan-out to the recipients' rooms among this replica's sockets. */
  delivered(event: DeliveredEvent): void;
  /** A reply's quote: a hit is built from the log this replica follows, a miss asks the message service. */
  quoted(result: 'hit' | 'miss'): void;
}

export const realtimeMetrics = (metrics: Metrics): RealtimeMetrics => {
  const sockets = metrics.gauge({
    name: 'veil_realtime_connected_sockets',
    help: 'Sockets connected to this realtime replica',
  });
  const sends = metrics.counter<'result'>({
    name: 'veil_realtime_socket_sends_total',
    help: 'Messages sent over a socket (`send message`), by result: stored, refused or failed',
    labelNames: ['result'],
  });
  const deliveries = metrics.counter<'event'>({
    name: 'veil_realtime_deliveries_total',
    help: "Emits of the fan-out to the recipients' rooms on this replica, by socket event",
    labelNames: ['event'],
  });
  const quotes = metrics.counter<'result'>({
    name: 'veil_realtime_quotes_total',
    help: 'Quoted messages the fan-out embedded in replies, by result: hit (from the message log it follows) or miss (asked of the message service)',
    labelNames: ['result'],
  });
  return {
    countSockets: (read) => sockets.sampleOnScrape({}, read),
    sent: (result) => sends.inc({ result }),
    delivered: (event) => deliveries.inc({ event }),
    quoted: (result) => quotes.inc({ result }),
  };
};
