import type { Server as HttpServer } from 'node:http';
import type { RealtimeServer } from './socket-types.ts';

const events = ['request', 'upgrade', 'close', 'listening'] as const;
type Listener = (...args: unknown[]) => void;

/**
 * Attaches Socket.IO to a shared HTTP server and returns how to take it off again. `io.close()`
 * would close the whole HTTP server, which other services in the process still use, and
 * Engine.IO replaces the server's `request` listeners with a wrapper; detaching restores them.
 */
export const attachToHttp = (io: RealtimeServer, server: HttpServer): (() => void) => {
  const before = new Map(events.map((e) => [e, server.listeners(e) as Listener[]]));
  io.attach(server);
  const after = new Map(events.map((e) => [e, server.listeners(e) as Listener[]]));
  return () => {
    for (const event of events) {
      const added = after.get(event)!.filter((l) => !before.get(event)!.includes(l));
      for (const listener of added) server.off(event, listener);
      // Engine.IO removed the earlier request listeners; put back any that are not there now.
      if (event === 'request') {
        const current = server.listeners('request') as Listener[];
        for (const listener of before.get('request')!)
          if (!current.includes(listener)) server.on('request', listener);
      }
    }
  };
};
