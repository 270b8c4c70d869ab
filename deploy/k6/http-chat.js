// HTTP load: register, log in, list chats, send real end-to-end encrypted messages.
// Payloads are precomputed with the real crypto (deploy/k6/precompute.ts) because k6's WebCrypto
// lacks RSA-OAEP: the server cannot tell, it only ever sees ciphertext.
//   node deploy/k6/precompute.ts && k6 run deploy/k6/http-chat.js
import http from 'k6/http';
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { BASE_URL, auth, registerAndLogin } from './lib/api.js';

const fixtures = JSON.parse(open('./fixtures.json'));
const sendLatency = new Trend('veil_send_ms', true);

export const options = {
  scenarios: {
    chat: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '1m', preAllocatedVUs: 20, maxVUs: 100 },
  },
  thresholds: {
    http_req_failed: ['rate<0.01'],
    'http_req_duration{name:send}': ['p(95)<200', 'p(99)<500'],
    'http_req_duration{name:chats}': ['p(95)<150', 'p(99)<400'],
    veil_send_ms: ['p(99)<500'],
  },
};

export function setup() {
  const run = Date.now().toString(36);
  const users = fixtures.users.map((/** @type {{ publicKey: string }} */ u, /** @type {number} */ i) =>
    registerAndLogin(`k6${run}${i}`.slice(0, 30), u.publicKey),
  );
  return { users };
}

/** @param {{ users: { id: string, token: string }[] }} data */
export default function (data) {
  const i = Math.floor(Math.random() * data.users.length);
  const sender = data.users[i];
  const recipient = data.users[(i + 1) % data.users.length];
  const payload = fixtures.payloads[i % fixtures.payloads.length];

  const chats = http.get(`${BASE_URL}/api/v1/chat/getallchats`, { ...auth(sender.token), tags: { name: 'chats' } });
  check(chats, { 'chats 200': (r) => r.status === 200 });

  const sent = http.post(`${BASE_URL}/api/v1/message/sendIndividualMessage/${recipient.id}`, JSON.stringify(payload), {
    ...auth(sender.token),
    tags: { name: 'send' },
  });
  check(sent, { 'send 201': (r) => r.status === 201 });
  sendLatency.add(sent.timings.duration);
}
