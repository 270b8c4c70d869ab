// Delivery latency over Socket.IO: each VU is one pair of users made in setup(). An iteration
// connects the recipient's socket and the sender's (Engine.IO/Socket.IO framing by hand,
// lib/socketio.js), sends MESSAGES messages over the sender's socket with an ack, as the web app
// does while connected, waits until every one has arrived on the recipient's socket or
// DELIVERY_TIMEOUT_MS has passed, and closes both. `veil_delivery_ms` is the time from just
// before each emit to its arrival; a message that never arrives counts in
// `veil_deliveries_missing`, and any fails the run.
//   node deploy/k6/precompute.ts 20 && k6 run deploy/k6/socket-latency.js
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'k6/timers';
import { WebSocket } from 'k6/websockets';
import { BASE_URL, openChat, registerAndLogin } from './lib/api.js';
import { runDeliverySession } from './lib/delivery-session.js';
import { pairsOf, socketPayload } from './lib/setup-data.js';

const fixtures = JSON.parse(open('./fixtures.json'));
const delivery = new Trend('veil_delivery_ms', true);
const delivered = new Counter('veil_delivered');
const missing = new Counter('veil_deliveries_missing');
const failedSends = new Counter('veil_sends_failed');
const duplicated = new Counter('veil_deliveries_duplicated');

const MESSAGES = Number(__ENV.MESSAGES || 20);
/** 5 sends a second per sender: within the server's default budgets (deploy/k6/README.md). */
const SEND_INTERVAL_MS = Number(__ENV.SEND_INTERVAL_MS || 200);
const DELIVERY_TIMEOUT_MS = Number(__ENV.DELIVERY_TIMEOUT_MS || 10_000);

export const options = {
  // One VU per pair of users in the fixtures (precompute.ts makes 20 users: 10 pairs).
  vus: Math.floor(fixtures.users.length / 2),
  duration: '1m',
  setupTimeout: '120s',
  thresholds: {
    veil_delivery_ms: ['p(95)<100', 'p(99)<250'],
    veil_deliveries_missing: ['count==0'],
    veil_sends_failed: ['count==0'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
};

/** The users, each pair's chat and its socket payload, made once for the whole run. */
export function setup() {
  const run = Date.now().toString(36);
  const users = fixtures.users.map((/** @type {{ publicKey: string }} */ user, /** @type {number} */ i) =>
    registerAndLogin(`ks${run}${i}`.slice(0, 30), user.publicKey),
  );
  const pairs = pairsOf(fixtures).map(({ sender, recipient, payload }) => {
    const [from, to] = [users[sender], users[recipient]];
    const chatId = openChat(from, to, payload);
    return {
      senderToken: from.token,
      recipientToken: to.token,
      payload: socketPayload(payload, { senderId: from.id, recipientId: to.id, chatId }),
    };
  });
  return { pairs };
}

/** @param {{ pairs: { senderToken: string, recipientToken: string, payload: Record<string, unknown> }[] }} data */
export default function (data) {
  // VUs beyond the pairs share one; their messages are told apart by id.
  const pair = data.pairs[(__VU - 1) % data.pairs.length];
  runDeliverySession({
    openSocket: (url, handlers) => {
      const socket = new WebSocket(url, null, { headers: { Origin: BASE_URL } });
      socket.onmessage = (event) => handlers.onMessage(String(event && event.data));
      socket.onclose = () => handlers.onClose();
      return socket;
    },
    timers: { setTimeout, clearTimeout, setInterval, clearInterval },
    now: () => Date.now(),
    baseUrl: BASE_URL,
    senderToken: pair.senderToken,
    recipientToken: pair.recipientToken,
    payload: pair.payload,
    idPrefix: `k6-vu${__VU}-it${__ITER}`,
    messages: MESSAGES,
    intervalMs: SEND_INTERVAL_MS,
    timeoutMs: DELIVERY_TIMEOUT_MS,
    onDone: (result) => {
      for (const ms of result.latenciesMs) delivery.add(ms);
      delivered.add(result.delivered);
      missing.add(result.missing);
      failedSends.add(result.failedSends);
      duplicated.add(result.duplicated);
      check(result, {
        'every message delivered': (r) => r.missing === 0,
        'every send stored': (r) => r.failedSends === 0,
        'sockets stayed open until done': (r) =>
          !r.endedBy.startsWith('a socket') && !r.endedBy.startsWith('connect'),
      });
    },
  });
}
