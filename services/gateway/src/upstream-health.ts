import type { Logger } from '@veil/ports';

export interface UpstreamHealthOptions {
  /** How often each upstream's /readyz is asked. Default 1 s. */
  intervalMs?: number;
  /** A probe without an answer by then counts as down (a frozen process accepts, never answers). */
  timeoutMs?: number;
}

/**
 * Which realtime replicas can take new sockets: each one's readiness probe, asked every second.
 * A replica that was killed refuses the probe; one that is frozen (SIGSTOP, a stuck event loop)
 * lets it time out. Either way it gets no new sockets until it answers ready again. A connection
 * that fails on the way marks its upstream down at once, before the next probe.
 */
export const watchUpstreams = (
  upstreams: readonly string[],
  log: Logger,
  { intervalMs = 1_000, timeoutMs = 800 }: UpstreamHealthOptions = {},
) => {
  const ready = new Map(upstreams.map((upstream) => [upstream, true]));
  const set = (upstream: string, isReady: boolean) => {
    if (ready.get(upstream) === isReady) return;
    ready.set(upstream, isReady);
    if (isReady) log.info({ upstream }, 'realtime replica is ready again; new sockets go to it');
    else log.warn({ upstream }, 'realtime replica is down or not answering; no new sockets go to it');
  };
  const probe = async (upstream: string) => {
    try {
      const res = await fetch(new URL('/readyz', upstream), { signal: AbortSignal.timeout(timeoutMs) });
      await res.body?.cancel();
      set(upstream, res.ok);
    } catch {
      set(upstream, false);
    }
  };
  const probeAll = () => upstreams.forEach((upstream) => void probe(upstream));
  probeAll();
  const timer = setInterval(probeAll, intervalMs);
  timer.unref();

  let next = 0;
  return {
    /** The next ready upstream, round robin; undefined when none is. */
    pick(): string | undefined {
      const candidates = upstreams.filter((upstream) => ready.get(upstream));
      return candidates.length ? candidates[next++ % candidates.length] : undefined;
    },
    markDown: (upstream: string) => set(upstream, false),
    stop: () => clearInterval(timer),
  };
};
