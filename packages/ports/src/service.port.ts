import type { RequestListener, Server } from 'node:http';
import type { Ports } from './ports.ts';

/**
 * How @veil/app starts a service. Every service exports `start(ctx)` from `src/service.ts`;
 * the same function runs in the embedded single process and alone in a cluster process.
 */
export interface HttpHost {
  /** The process's HTTP server. Socket.IO attaches here; /healthz and /readyz are answered by the runtime. */
  server: Server;
  /** Routes every other HTTP request to this listener (the API gateway's Express app). */
  setRequestHandler(listener: RequestListener): void;
}

export interface ServiceContext<TSettings = unknown> {
  ports: Ports;
  settings: TSettings;
  /** Present in processes that serve HTTP (gateway, realtime). */
  http?: HttpHost;
}

export interface RunningService {
  /** Stops consumers and handlers; resolves when in-flight work has finished. */
  stop(): Promise<void>;
}

export type StartService<TSettings = unknown> = (ctx: ServiceContext<TSettings>) => Promise<RunningService>;
