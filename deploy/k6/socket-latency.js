// Socket.IO load: each VU is a recipient connected over websocket (Engine.IO/Socket.IO framing
// by hand, lib/socketio.js) and a sender posting encrypted messages over HTTP; the time from
// send to `message received` is the custom trend `veil_delivery_ms`.
//   node deploy/k6/precompute.ts && k6 run deploy/k6/socket-latency.js
import http from 'k6/http';
import ws from 'k6/ws';
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';
import { BASE_URL, auth, registerAndLogin } from './lib/api.js';
import { createSession, socketIoUrl } from './lib/socketio.js';

const fixtures = JSON.parse(open('./fixtures.json'));
const delivery = new Trend('veil_delivery_ms', true);
const delivered = new Counter('veil_delivered');

export const options = {
  vus: 10,
  duration: '1m',
  thresholds: {
    veil_delivery_ms: ['p(95)<100', 'p(99)<250'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
};

const MESSAGES_PER_SESSION = 20;

export default function () {
  const run = `${Date.now().toString(36)}${__VU}`;
  const [a, b] = [fixtures.users[0], fixtures.users[1]];
  const sender = registerAndLogin(`ks${run}`.slice(0, 30), a.publicKey);
  const recipient = registerAndLogin(`kr${run}`.slice(0, 30), b.publicKey);
  /** @type {Record<string, number>} */
  const sentAt = {};
  let sent = 0;

  const res = ws.connect(socketIoUrl(BASE_URL), { headers: { Origin: BASE_URL } }, (socket) => {
    const session = createSession({
      send: (text) => socket.send(text),
      auth: { token: recipient.token },
      onConnect: () => session.emit('setup', { _id: recipient.id }),
      onEvent: (name, args) => {
        if (name !== 'message received') return;
        const message = /** @type {{ message: { _id: string } }} */ (args[0]).message;
        const started = sentAt[message._id];
        if (started !== undefined) {
          delivery.add(Date.now() - started);
          delivered.add(1);
        }
        if (sent >= MESSAGES_PER_SESSION && Object.keys(sentAt).length === sent) socket.close();
      },
      onError: (message) => {
        check(message, { 'socket connected': () => false });
        socket.close();
      },
    });
    socket.on('message', (raw) => session.handle(raw));
    socket.setInterval(() => {
      if (!session.connected || sent >= MESSAGES_PER_SESSION) return;
      const started = Date.now();
      const response = http.post(
        `${BASE_URL}/api/v1/message/sendIndividualMessage/${recipient.id}`,
        JSON.stringify(fixtures.payloads[sent % fixtures.payloads.length]),
        auth(sender.token),
      );
      check(response, { 'send 201': (r) => r.status === 201 });
      if (response.status === 201) {
        const id = /** @type {{ data: { message: { _id: string } } }} */ (response.json()).data.message._id;
        sentAt[id] = started;
      }
      sent += 1;
    }, 100);
    socket.setTimeout(() => socket.close(), 30_000);
  });
  check(res, { 'websocket upgraded': (r) => r && r.status === 101 });
}
