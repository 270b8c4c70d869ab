import type { ErrorBody } from '@veil/contracts';

/**
 * Request/reply between the API gateway and the services (and between services).
 * Every reply is an envelope; a handler that throws a DomainError replies with its code,
 * anything else replies INTERNAL. A call that gets no reply in time rejects with UNAVAILABLE.
 * Handlers registered under one service name form a queue group: replicas share the load.
 */
export type RpcReply = { ok: true; data: unknown } | { ok: false; error: ErrorBody };

export type RpcHandler = (payload: unknown) => Promise<unknown>;

export interface RpcServeHandle {
  stop(): Promise<void>;
}

export interface RpcCallOptions {
  timeoutMs?: number;
}

export interface Rpc {
  /**
   * Calls reach their handler in this process with the caller's own values, not through a wire:
   * an input already checked at the edge (`RpcOperation.checkedAtEdge`) need not be parsed again.
   */
  readonly handsOverValues?: boolean;
  serve(service: string, handlers: Record<string, RpcHandler>): Promise<RpcServeHandle>;
  /** Resolves with the handler's data; rejects with DomainError (remote code, or UNAVAILABLE). */
  call(service: string, operation: string, payload: unknown, options?: RpcCallOptions): Promise<unknown>;
}
