import { createServer } from 'node:http';
import { Server } from 'socket.io';

/**
 * The baseline server, run as a process of its own (`relay.ts` starts it) so that, like Veil,
 * it has an event loop to itself instead of sharing the load generator's. A bare Socket.IO relay
 * on the same stack (websocket only): no auth, persistence or encryption. It sends each message
 * as Veil's fan-out does, one emit to the rooms of all its recipients (encoded once), and acks
 * the sender with nothing. `GET /readyz` answers once it listens.
 */
const http = createServer((req, res) => {
  res.writeHead(req.url === '/readyz' ? 200 : 404).end();
});
const server = new Server(http, { transports: ['websocket'] });
server.on('connection', (socket) => {
  void socket.join(`user:${String(socket.handshake.auth.user)}`);
  socket.on('send', (message: { id: string; to: number[]; body: unknown }, ack: () => void) => {
    server.to(message.to.map((to) => `user:${to}`)).emit('recv', { id: message.id, body: message.body });
    ack();
  });
});
http.listen(Number(process.env.PORT), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
