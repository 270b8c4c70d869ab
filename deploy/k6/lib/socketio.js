// Socket.IO v4 over a raw websocket, for k6 (which has websockets but no Socket.IO client).
// Engine.IO v4 packets: 0 open, 2 ping, 3 pong, 4 message. Socket.IO packets inside a message:
// 0 connect, 1 disconnect, 2 event, 3 ack, 4 connect_error. So "40{...}" connects with an auth
// payload, "42[...]" is an event, "427[...]" an event that asks for ack 7, "437[...]" that ack,
// and the server's "2" must be answered with "3".
// Runtime-neutral: it only needs a `send(text)` function, so tests drive it over `ws` in Node.

/**
 * @param {string} baseUrl e.g. http://localhost:8080
 * @returns {string} the websocket URL of the Socket.IO endpoint
 */
export function socketIoUrl(baseUrl) {
  return `${baseUrl.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
}

/**
 * @param {string} event
 * @param {...unknown} args
 * @returns {string}
 */
export function encodeEvent(event, ...args) {
  return `42${JSON.stringify([event, ...args])}`;
}

/**
 * An event the server answers with an ack carrying `ackId`.
 * @param {number} ackId
 * @param {string} event
 * @param {...unknown} args
 * @returns {string}
 */
export function encodeEventWithAck(ackId, event, ...args) {
  return `42${ackId}${JSON.stringify([event, ...args])}`;
}

/**
 * @typedef {{ kind: 'open', data: { sid: string, pingInterval: number, pingTimeout: number } }
 *   | { kind: 'ping' } | { kind: 'pong' }
 *   | { kind: 'connect', data: { sid: string } }
 *   | { kind: 'connect_error', data: { message: string, data?: unknown } }
 *   | { kind: 'event', name: string, args: unknown[] }
 *   | { kind: 'ack', id: number, args: unknown[] }
 *   | { kind: 'disconnect' } | { kind: 'other', raw: string }} Frame
 */

/**
 * @param {string} raw one websocket text frame
 * @returns {Frame}
 */
export function parseFrame(raw) {
  if (raw.startsWith('0')) return { kind: 'open', data: JSON.parse(raw.slice(1)) };
  if (raw === '2') return { kind: 'ping' };
  if (raw === '3') return { kind: 'pong' };
  if (raw.startsWith('40'))
    return { kind: 'connect', data: raw.length > 2 ? JSON.parse(raw.slice(2)) : { sid: '' } };
  if (raw.startsWith('44')) return { kind: 'connect_error', data: JSON.parse(raw.slice(2)) };
  if (raw.startsWith('41')) return { kind: 'disconnect' };
  // An event or an ack: an optional ack id (digits) before the JSON array.
  const packet = /^4([23])(\d*)(\[.*)$/.exec(raw);
  if (packet) {
    const [, type, id, json] = packet;
    const values = JSON.parse(/** @type {string} */ (json));
    if (type === '3') return { kind: 'ack', id: Number(id), args: values };
    const [name, ...args] = values;
    return { kind: 'event', name, args };
  }
  return { kind: 'other', raw };
}

/**
 * A Socket.IO client session on top of any websocket.
 * @param {{ send: (text: string) => void, auth: Record<string, unknown>,
 *   onConnect?: () => void, onEvent?: (name: string, args: unknown[]) => void,
 *   onError?: (message: string) => void }} options
 */
export function createSession(options) {
  let connected = false;
  let nextAckId = 0;
  /** @type {Record<number, (...args: unknown[]) => void>} */
  const awaitingAck = {};
  return {
    /** @param {string} raw */
    handle(raw) {
      const frame = parseFrame(raw);
      switch (frame.kind) {
        case 'open':
          options.send(`40${JSON.stringify(options.auth)}`);
          break;
        case 'ping':
          options.send('3');
          break;
        case 'connect':
          connected = true;
          if (options.onConnect) options.onConnect();
          break;
        case 'connect_error':
          if (options.onError) options.onError(frame.data.message);
          break;
        case 'event':
          if (options.onEvent) options.onEvent(frame.name, frame.args);
          break;
        case 'ack': {
          const onAck = awaitingAck[frame.id];
          delete awaitingAck[frame.id];
          if (onAck) onAck(...frame.args);
          break;
        }
        default:
          break;
      }
    },
    /**
     * @param {string} event
     * @param {...unknown} args
     */
    emit(event, ...args) {
      if (!connected) throw new Error('Socket.IO session is not connected yet');
      options.send(encodeEvent(event, ...args));
    },
    /**
     * Emits `event` with `payload` and asks the server to acknowledge it: `onAck` gets the ack's arguments.
     * @param {string} event
     * @param {unknown} payload
     * @param {(...args: unknown[]) => void} onAck
     */
    emitWithAck(event, payload, onAck) {
      if (!connected) throw new Error('Socket.IO session is not connected yet');
      const id = nextAckId++;
      awaitingAck[id] = onAck;
      options.send(encodeEventWithAck(id, event, payload));
    },
    get connected() {
      return connected;
    },
  };
}
