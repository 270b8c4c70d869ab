/**
 * Counters with a budget per key and window, shared by every replica of a service (Redis in
 * cluster mode, memory in the embedded process). They throttle logins and write routes.
 */
export interface RateLimitSpec {
  /** Names the budget; part of every key, so two budgets never share counters. */
  name: string;
  /** Points a key may spend per window. */
  points: number;
  windowSeconds: number;
}

export interface RateLimitState {
  /** Points spent in the current window, this call's included. */
  consumed: number;
  /** Until the window ends and the budget is whole again. */
  retryAfterMs: number;
}

export interface RateLimit {
  /**
   * Spends `points` (default 1) of the key's budget. `allowed` is false once the budget is spent;
   * the points are counted all the same. Concurrent calls are counted exactly.
   */
  consume(key: string, points?: number): Promise<RateLimitState & { allowed: boolean }>;
  /** The key's state without spending anything (consumed 0 when it has spent nothing). */
  peek(key: string): Promise<RateLimitState>;
  /** Gives the key its whole budget back. */
  reset(key: string): Promise<void>;
}

export interface RateLimits {
  limit(spec: RateLimitSpec): RateLimit;
  close(): Promise<void>;
}
