/** Sends remembered at most: a send that never reaches the fan-out (a repeat) is forgotten in turn. */
const maxRemembered = 10_000;

/**
 * Which socket sent each message still on its way to the fan-out, by sender and client message
 * id. The fan-out tells the sender's other sockets of the message (`message sent`) and skips the
 * one that sent it, whose ack told it already: the web app puts its own message in place from
 * the ack. Per replica: a sending socket is always on the replica that took the send, and that
 * replica's fan-out sees every message.
 */
export class SendingSockets {
  readonly #sockets = new Map<string, string>();

  static #key(userId: string, clientMessageId: string) {
    return `${userId}\u0000${clientMessageId}`;
  }

  note(userId: string, clientMessageId: string, socketId: string) {
    this.#sockets.set(SendingSockets.#key(userId, clientMessageId), socketId);
    if (this.#sockets.size > maxRemembered) {
      const [oldest] = this.#sockets.keys();
      this.#sockets.delete(oldest!);
    }
  }

  /** The socket that sent it, if it was sent through this replica; forgotten once taken. */
  take(userId: string, clientMessageId: string | undefined): string | undefined {
    if (clientMessageId === undefined) return undefined;
    const key = SendingSockets.#key(userId, clientMessageId);
    const socketId = this.#sockets.get(key);
    this.#sockets.delete(key);
    return socketId;
  }
}
