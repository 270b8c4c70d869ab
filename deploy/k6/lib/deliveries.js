// Accounts for one session's messages: when each send was issued, the message id its ack gave
// it, and when it arrived on the recipient's socket. A delivery can arrive before its ack (the
// server sends both once the message is stored), so arrivals wait here by message id until their
// ack names them. Runtime-neutral (no k6 imports): tests drive it in Node.

/**
 * @typedef {{ latenciesMs: number[], delivered: number, missing: number, failedSends: number,
 *   duplicated: number }} DeliverySummary
 */

export function createDeliveryTracker() {
  /** @type {Record<string, number>} client message id -> when its send was issued (ms) */
  const issuedAt = {};
  /** @type {Record<string, string>} client message id -> the stored message's id (from the ack) */
  const storedAs = {};
  /** @type {Record<string, true>} client message ids the server refused or failed */
  const refused = {};
  /** @type {Record<string, number[]>} message id -> each arrival (ms) */
  const arrivals = {};

  const issuedIds = () => Object.keys(issuedAt);
  const answered = (/** @type {string} */ clientId) => clientId in storedAs || clientId in refused;
  const arrived = (/** @type {string} */ clientId) => clientId in storedAs && storedAs[clientId] in arrivals;

  return {
    /**
     * @param {string} clientId the send's clientMessageId
     * @param {number} at when it was handed to the socket (ms)
     */
    issued(clientId, at) {
      issuedAt[clientId] = at;
    },
    /**
     * @param {string} clientId
     * @param {string} messageId
     */
    stored(clientId, messageId) {
      storedAs[clientId] = messageId;
    },
    /** @param {string} clientId */
    failed(clientId) {
      refused[clientId] = true;
    },
    /**
     * @param {string} messageId
     * @param {number} at
     */
    arrived(messageId, at) {
      (arrivals[messageId] = arrivals[messageId] || []).push(at);
    },
    /** Every send answered, and every stored message arrived: nothing more to wait for. */
    complete() {
      return issuedIds().every((id) => answered(id) && (id in refused || arrived(id)));
    },
    /**
     * What the session measured. A send that was never answered, or stored and never delivered,
     * is a missing delivery; a refused send is a failed send.
     * @returns {DeliverySummary}
     */
    summary() {
      /** @type {number[]} */
      const latenciesMs = [];
      let duplicated = 0;
      for (const clientId of issuedIds()) {
        if (!arrived(clientId)) continue;
        const times = arrivals[storedAs[clientId]];
        latenciesMs.push(times[0] - issuedAt[clientId]);
        duplicated += times.length - 1;
      }
      const failedSends = Object.keys(refused).length;
      return {
        latenciesMs,
        delivered: latenciesMs.length,
        missing: issuedIds().length - failedSends - latenciesMs.length,
        failedSends,
        duplicated,
      };
    },
  };
}
