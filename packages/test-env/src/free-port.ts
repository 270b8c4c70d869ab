import { createServer } from 'node:net';

/** Binds `port` (0: any) on every IPv4 address, as Veil's processes do, and returns the port it got. */
const bind = (port: number): Promise<number | undefined> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '0.0.0.0', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : undefined));
    });
  });

/** A port nothing listens on right now, chosen by the OS. */
export const freePort = async (): Promise<number> => {
  const port = await bind(0);
  if (port === undefined) throw new Error('could not bind a port on 0.0.0.0');
  return port;
};

/**
 * A base port such that base + each offset is free right now: for a process that derives its
 * ports from one (`npm run cluster` uses PORT plus fixed offsets). Tried a few times, since
 * anything else on the machine may take one of them in between.
 */
export const freePortBlock = async (offsets: readonly number[], attempts = 20): Promise<number> => {
  const highest = Math.max(...offsets);
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const base = await freePort();
    if (base + highest > 65_535) continue;
    const bound = await Promise.all(offsets.map((offset) => bind(base + offset)));
    if (bound.every((port) => port !== undefined)) return base;
  }
  throw new Error(`no free block of ports at offsets ${offsets.join(', ')} after ${attempts} tries`);
};
