// Small helpers over k6/http for the /api/v1 surface.
import http from 'k6/http';
import { check } from 'k6';

export const BASE_URL = __ENV.BASE_URL || 'http://localhost:8080';

/**
 * @param {string} token
 * @returns {{ headers: Record<string, string> }}
 */
export function auth(token) {
  return { headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' } };
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
  check(registered, { 'register 201': (r) => r.status === 201 });
  const login = http.post(`${BASE_URL}/api/v1/user/login`, JSON.stringify({ username, password }), {
    headers: { 'Content-Type': 'application/json' },
  });
  check(login, { 'login 200': (r) => r.status === 200 });
  const user = /** @type {{ data: { user: { accesstoken: string, loggedUser: { _id: string } } } }} */ (login.json()).data.user;
  return { id: user.loggedUser._id, username, token: user.accesstoken };
}
