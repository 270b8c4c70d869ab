// One load-test session: the recipient's and the sender's sockets (Socket.IO over websockets),
// `messages` sends over the sender's socket with an ack (as the web app sends while connected),
// then a wait until every send is answered and every stored message has arrived, or until a
// timeout; then both sockets close and `onDone` gets what was measured. Each send is stamped just
// before its emit, so a delivery's time is the server's and the network's, never the VU's own.
// Runtime-neutral: the caller brings its websockets and timers (k6 or Node), so tests drive it in
// Node against a real server.
import { createDeliveryTracker } from './deliveries.js';
import { createSession, socketIoUrl } from './socketio.js';

/**
 * @typedef {import('./deliveries.js').DeliverySummary & { endedBy: string }} SessionResult
 * @typedef {{ send(text: string): void, close(): void }} OpenSocket
 * @typedef {(url: string, handlers: { onMessage(text: string): void, onClose(): void }) => OpenSocket} SocketOpener
 * @typedef {{ setTimeout(fn: () => void, ms: number): unknown, clearTimeout(id: any): void,
 *   setInterval(fn: () => void, ms: number): unknown, clearInterval(id: any): void }} Timers
 */

/**
 * @param {{
 *   openSocket: SocketOpener, timers: Timers, now: () => number, baseUrl: string,
 *   senderToken: string, recipientToken: string,
 *   payload: Record<string, unknown>, idPrefix: string,
 *   messages: number, intervalMs: number, timeoutMs: number,
 *   onDone: (result: SessionResult) => void,
 * }} options
 */
export function runDeliverySession(options) {
  const { openSocket, timers, now, messages, intervalMs, timeoutMs } = options;
  const tracker = createDeliveryTracker();
  /** @type {OpenSocket[]} */
  const sockets = [];
  /** @type {unknown} */
  let sendTimer;
  /** Until both sockets connect, then from the last send: how long deliveries may take. */
  let deadline = timers.setTimeout(() => finish('timeout'), timeoutMs);
  let sent = 0;
  let connectedSockets = 0;
  let finished = false;

  /** @param {string} endedBy */
  const finish = (endedBy) => {
    if (finished) return;
    finished = true;
    timers.clearInterval(sendTimer);
    timers.clearTimeout(deadline);
    for (const socket of sockets) socket.close();
    options.onDone({ ...tracker.summary(), endedBy });
  };
  const finishIfComplete = () => {
    if (sent === messages && tracker.complete()) finish('all answered and delivered');
  };

  /**
   * @param {string} token
   * @param {(name: string, args: unknown[]) => void} onEvent
   */
  const connect = (token, onEvent) => {
    const socket = openSocket(socketIoUrl(options.baseUrl), {
      onMessage: (text) => session.handle(text),
      onClose: () => finish('a socket closed'),
    });
    const session = createSession({
      send: (text) => socket.send(text),
      auth: { token },
      onConnect: () => {
        connectedSockets += 1;
        if (connectedSockets === 2) startSending();
      },
      onEvent,
      onError: (message) => finish(`connect refused: ${message}`),
    });
    sockets.push(socket);
    return session;
  };

  connect(options.recipientToken, (name, args) => {
    if (name !== 'message received') return;
    const { message } = /** @type {{ message: { _id: string } }} */ (args[0]);
    tracker.arrived(message._id, now());
    finishIfComplete();
  });
  const sender = connect(options.senderToken, () => undefined);

  const sendOne = () => {
    const clientId = `${options.idPrefix}-${sent}`;
    sent += 1;
    tracker.issued(clientId, now());
    sender.emitWithAck('send message', { ...options.payload, clientMessageId: clientId }, (reply) => {
      const answer = /** @type {{ ok: boolean, data?: { _id: string } }} */ (reply);
      if (answer.ok && answer.data) tracker.stored(clientId, answer.data._id);
      else tracker.failed(clientId);
      finishIfComplete();
    });
    if (sent === messages) {
      timers.clearInterval(sendTimer);
      timers.clearTimeout(deadline);
      deadline = timers.setTimeout(() => finish('timeout'), timeoutMs);
    }
  };
  const startSending = () => {
    timers.clearTimeout(deadline);
    sendOne();
    if (sent < messages) sendTimer = timers.setInterval(sendOne, intervalMs);
  };
}
