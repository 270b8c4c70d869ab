// What the k6 scripts' setup() makes of the fixtures and the server's answers. Runtime-neutral
// (no k6 imports), so tests run it in Node against a real server.

/**
 * @typedef {{ encryptedMessage: string, iv: string, encryptedAESKeyForRecipient: string,
 *   encryptedAESKeyForSender: string }} IndividualPayload
 * @typedef {{ users: { publicKey: string }[], payloads: IndividualPayload[] }} Fixtures
 */

/**
 * Why an answer is not the one a step needs, in words that say what to change; null when it is.
 * A 429 names the server settings a load test needs raised (deploy/k6/README.md).
 * @param {string} step e.g. 'login'
 * @param {number} status
 * @param {number} expected
 * @param {unknown} [body] the parsed JSON answer, if any
 * @returns {string | null}
 */
export function statusProblem(step, status, expected, body) {
  if (status === expected) return null;
  if (status === 429) {
    return (
      `${step} answered 429 (rate limited): the server's budgets are below this load test's. ` +
      'Raise LOGIN_ATTEMPTS_PER_IP (logins per IP per 15 minutes), WRITES_PER_IP_PER_MINUTE ' +
      '(register and login) and WRITES_PER_USER_PER_MINUTE (HTTP sends) as deploy/k6/README.md says.'
    );
  }
  const detail = body && typeof body === 'object' && 'message' in body ? `: ${String(body.message)}` : '';
  return `${step} answered ${status}, expected ${expected}${detail}`;
}

/**
 * Who talks to whom: user 2k sends to user 2k+1, with the payload the fixtures encrypted from the
 * one to the other (payloads[i] is user i's message to user i+1, wrapped for both their keys).
 * @param {Fixtures} fixtures
 */
export function pairsOf(fixtures) {
  /** @type {{ sender: number, recipient: number, payload: IndividualPayload }[]} */
  const pairs = [];
  for (let i = 0; i + 1 < fixtures.users.length; i += 2) {
    pairs.push({ sender: i, recipient: i + 1, payload: fixtures.payloads[i] });
  }
  return pairs;
}

/**
 * The socket's `send message` body for a pair's chat: the same ciphertext, its wrapped keys under
 * the ids the server gave the two users.
 * @param {IndividualPayload} payload
 * @param {{ senderId: string, recipientId: string, chatId: string }} ids
 */
export function socketPayload(payload, { senderId, recipientId, chatId }) {
  return {
    chatId,
    encryptedMessage: payload.encryptedMessage,
    iv: payload.iv,
    encryptedKeys: {
      [senderId]: payload.encryptedAESKeyForSender,
      [recipientId]: payload.encryptedAESKeyForRecipient,
    },
  };
}
