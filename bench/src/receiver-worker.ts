import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { io, type Socket } from 'socket.io-client';
import { now } from './stats.ts';
import { LOOP_SAMPLE_MS, loopDelayMs } from './sweep.ts';
import { openXmppSession, type XmppSession } from './xmpp.ts';

/**
 * A receiver thread of the load generator (started by receivers.ts): it opens the sockets of its share of the users, timestamps every
 * delivery the moment it arrives, and reports arrivals to the main thread in batches. The main
 * thread only sends, so neither side's event loop queues behind the other's work.
 */
export interface ReceiverWorkerData {
  receivers: { userIndex: number; spec: ReceiverSpec }[];
}

/**
 * How to open one user's receiving socket, as plain data that can be handed to a worker thread.
 * The socket is Socket.IO over websocket only, without reconnection; with `xmpp`, an XMPP
 * session over WebSocket at `url` instead (a stanza's id is the message id; `event`, `idPath`
 * and `auth` are not used).
 */
export interface ReceiverSpec {
  xmpp?: { domain: string; user: string; password: string };
  url: string;
  /** The handshake's `auth`. */
  auth: Record<string, unknown>;
  /** The Origin header, for servers that check it. */
  origin?: string;
  /** The event a delivery arrives as, and where its payload holds the message id. */
  event: string;
  idPath: string[];
}

/** One delivery: which message reached which user, and when (`now()`, comparable across threads). */
export interface Arrival {
  messageId: string;
  userIndex: number;
  at: number;
}

/**
 * 'measure': the measured window starts (the event-loop delay counts from here). 'close': close
 * every socket, report the last arrivals, then answer 'closed' with this thread's event-loop
 * delay p99 over the window.
 */
export type ToWorker = { type: 'measure' } | { type: 'close' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'arrivals'; arrivals: Arrival[] }
  | { type: 'closed'; lagP99Ms: number }
  | { type: 'failed'; message: string };

/** A batch leaves at most this long after its first arrival, or as soon as it is this big. */
const BATCH_MS = 10;
const BATCH_SIZE = 256;
/** Sockets opened at once. */
const CONNECT_CONCURRENCY = 50;

const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);
const { receivers } = workerData as ReceiverWorkerData;
const sockets: (Socket | XmppSession)[] = [];
const lag = monitorEventLoopDelay({ resolution: LOOP_SAMPLE_MS });
lag.enable();

let batch: Arrival[] = [];
let timer: NodeJS.Timeout | undefined;
const flush = () => {
  clearTimeout(timer);
  timer = undefined;
  if (batch.length === 0) return;
  post({ type: 'arrivals', arrivals: batch });
  batch = [];
};
const record = (messageId: string, userIndex: number, at: number) => {
  batch.push({ messageId, userIndex, at });
  if (batch.length >= BATCH_SIZE) flush();
  else timer ??= setTimeout(flush, BATCH_MS);
};

const idIn = (payload: unknown, path: string[]) =>
  path.reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], payload);

const connect = async ({ userIndex, spec }: ReceiverWorkerData['receivers'][number]) => {
  if (spec.xmpp) {
    const session = await openXmppSession({
      url: spec.url,
      ...spec.xmpp,
      onMessage: (id) => record(id, userIndex, now()),
    });
    sockets.push(session);
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const socket = io(spec.url, {
      transports: ['websocket'],
      auth: spec.auth,
      ...(spec.origin && { extraHeaders: { origin: spec.origin } }),
      reconnection: false,
    });
    sockets.push(socket);
    socket.on(spec.event, (payload: unknown) => {
      const at = now();
      const id = idIn(payload, spec.idPath);
      if (typeof id === 'string') record(id, userIndex, at);
      else
        post({ type: 'failed', message: `'${spec.event}' without a message id at ${spec.idPath.join('.')}` });
    });
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error: Error) =>
      reject(new Error(`receiver socket of user ${userIndex} (${spec.url}): ${error.message}`)),
    );
  });
};

const closeSockets = () => {
  for (const socket of sockets) socket.close();
};

port.on('message', (message: ToWorker) => {
  if (message.type === 'measure') lag.reset();
  else if (message.type === 'close') {
    lag.disable();
    closeSockets();
    flush();
    post({ type: 'closed', lagP99Ms: lag.count ? loopDelayMs(lag.percentile(99)) : 0 });
  }
});

try {
  for (let i = 0; i < receivers.length; i += CONNECT_CONCURRENCY)
    await Promise.all(receivers.slice(i, i + CONNECT_CONCURRENCY).map(connect));
  post({ type: 'ready' });
} catch (error) {
  closeSockets();
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
}
