/**
 * A token bucket per socket: `capacity` events at once, refilled at `refillPerSecond`.
 * Time is passed in so the bucket is pure and unit-testable.
 */
export interface RateLimiter {
  /** Takes one token; false means drop the event. */
  take(nowMs: number): boolean;
}

export const createRateLimiter = (options: { capacity: number; refillPerSecond: number }): RateLimiter => {
  let tokens = options.capacity;
  let last: number | undefined;
  return {
    take(nowMs) {
      if (last !== undefined) {
        tokens = Math.min(options.capacity, tokens + ((nowMs - last) / 1000) * options.refillPerSecond);
      }
      last = nowMs;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
};

/** Budgets per socket. Typing is sent on every keystroke, so it gets the most room. */
export const socketBudgets = {
  /** typing / stop typing / join chat / setup / online. */
  chatter: { capacity: 30, refillPerSecond: 15 },
  /** message seen: the client batches every 2 s; a burst of reconnect catch-up is allowed. */
  receipts: { capacity: 10, refillPerSecond: 2 },
  /**
   * send message: far above any typist, so scripted clients and bursts after a reconnect pass;
   * a flood is cut. (HTTP sends spend from the gateway's per-user write budget.)
   */
  sends: { capacity: 200, refillPerSecond: 100 },
  /**
   * link open / join / relay / close: a link takes about three of each side's events, so this
   * allows a few attempts in a row and then about one a second.
   */
  links: { capacity: 20, refillPerSecond: 1 },
  /**
   * call signal: a call's set-up is an offer, an answer and a few dozen ICE candidates in a
   * second or two; the bucket lets that through and cuts a flood at once.
   */
  calls: { capacity: 60, refillPerSecond: 10 },
} as const;

/** A `typing` for one chat is forwarded at most this often; the indicator lasts 3 s on the client. */
export const typingForwardIntervalMs = 1000;
