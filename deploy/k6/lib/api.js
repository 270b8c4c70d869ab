// Small helpers over k6/http for the /api/v1 surface. Every answer's status is checked; one that
// is not what the step needs fails the check and stops with a reason (a 429 names the settings).
import http from 'k6/http';
import { check, fail } from 'k6';
import { statusProblem } from './setup-data.js';

export const BASE_URL = __ENV.BASE_URL || 'http://localhost:8080';

/**
 * @param {string} token
 * @returns {{ headers: Record<string, string> }}
 */
export function auth(token) {
  return { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } };
}

/**
 * Checks that `response` has the status `step` needs; otherwise fails with the reason.
 * @param {string} step
 * @param {import('k6/http').RefinedResponse<any>} response
 * @param {number} expected
 */
export function expectStatus(step, response, expected) {
  let body;
  try {
    body = response.json();
  } catch {
    body = undefined; // not JSON (a proxy's error page): the status says enough
  }
  const problem = statusProblem(step, response.status, expected, body);
  check(response, { [`${step} ${expected}`]: () => problem === null });
  if (problem) fail(problem);
}

/**
 * Registers a user with a precomputed public key and logs in.
 * @param {string} username
 * @param {string} publicKey base64 SPKI
 * @returns {{ id: string, username: string, token: string }}
 */
export function registerAndLogin(username, publicKey) {
  const password = 'k6-password-123';
  const registered = http.post(`${BASE_URL}/api/v1/user/register`, { username, password, publicKey });
  expectStatus('register', registered, 201);
  const login = http.post(`${BASE_URL}/api/v1/user/login`, JSON.stringify({ username, password }), {
    headers: { 'Content-Type': 'application/json' },
  });
  expectStatus('login', login, 200);
  const user = /** @type {{ data: { user: { accesstoken: string, loggedUser: { _id: string } } } }} */ (
    login.json()
  ).data.user;
  return { id: user.loggedUser._id, username, token: user.accesstoken };
}

/**
 * A pair's first message over HTTP, which opens their chat (as "Say Hi" does in the app).
 * @param {{ token: string }} sender
 * @param {{ id: string }} recipient
 * @param {unknown} payload the fixtures' individual payload from sender to recipient
 * @returns {string} the chat's id
 */
export function openChat(sender, recipient, payload) {
  const response = http.post(
    `${BASE_URL}/api/v1/message/sendIndividualMessage/${recipient.id}`,
    JSON.stringify(payload),
    auth(sender.token),
  );
  expectStatus('first message', response, 201);
  return /** @type {{ data: { chat: { _id: string } } }} */ (response.json()).data.chat._id;
}
