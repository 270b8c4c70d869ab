import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { openGroupCommitLog } from './group-commit.ts';

/**
 * The baseline server, run as a process of its own (`relay.ts` starts it) so that, like Veil,
 * it has an event loop to itself instead of sharing the load generator's. A bare Socket.IO relay
 * on the same stack (websocket only): no auth, persistence or encryption. It sends each message
 * as Veil's fan-out does, one emit to the rooms of all its recipients (encoded once), and acks
 * the sender with nothing. `GET /readyz` answers once it listens.
 *
 * With `RELAY_LOG_FILE` set it is the durable relay: every message is appended to that file as
 * one JSON line and is on disk (group commit, group-commit.ts) before it is relayed and acked,
 * as Veil's messages are in its event log before the fan-out and the ack.
 */
const logFile = process.env.RELAY_LOG_FILE;
const log = logFile ? await openGroupCommitLog(logFile) : undefined;

const http = createServer((req, res) => {
  res.writeHead(req.url === '/readyz' ? 200 : 404).end();
});
const server = new Server(http, { transports: ['websocket'] });

type Message = { id: string; to: number[]; body: unknown };
const relay = (message: Message, ack: () => void) => {
  server.to(message.to.map((to) => `user:${to}`)).emit('recv', { id: message.id, body: message.body });
  ack();
};

server.on('connection', (socket) => {
  void socket.join(`user:${String(socket.handshake.auth.user)}`);
  socket.on('send', (message: Message, ack: () => void) => {
    if (log) log.append(`${JSON.stringify(message)}\n`, () => relay(message, ack));
    else relay(message, ack);
  });
});
http.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () =>
  server.close(async () => {
    await log?.close();
    process.exit(0);
  }),
);
