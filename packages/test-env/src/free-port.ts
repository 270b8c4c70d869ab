import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Binds `port` on every IPv4 address, as Veil's processes do, and resolves whether it could. */
const bind = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });

/**
 * Ports are chosen below the range the OS hands out to outgoing connections: a port checked free
 * there can be taken by any client socket before the server that needs it (often a process
 * still starting) listens. Linux says where that range starts; elsewhere 32768 is the common floor.
 */
const ephemeralFloor = (() => {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(low) > 11_000 ? Number(low) : 32_768;
  } catch {
    return 32_768;
  }
})();
const lowest = 10_000;

/**
 * A base port such that base + each offset is free right now: for a process that derives its
 * ports from one (`npm run cluster` uses PORT plus fixed offsets). Tried many times, since
 * anything else on the machine may listen on one of them.
 */
export const freePortBlock = async (offsets: readonly number[], attempts = 50): Promise<number> => {
  const highest = Math.max(...offsets);
  const span = ephemeralFloor - highest - lowest;
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const base = lowest + Math.floor(Math.random() * span);
    const bound = await Promise.all(offsets.map((offset) => bind(base + offset)));
    if (bound.every(Boolean)) return base;
  }
  throw new Error(`no free block of ports at offsets ${offsets.join(', ')} after ${attempts} tries`);
};

/** A port nothing listens on right now, outside the range of outgoing connections. */
export const freePort = (): Promise<number> => freePortBlock([0]);
