/**
 * Which request a piece of work belongs to, across processes, as a W3C trace context
 * (`traceparent`: version, a 32-hex-digit trace id, a 16-hex-digit parent id, flags). The API
 * gateway starts or continues a trace per request; RPC carries it to the service that answers;
 * every log line written inside it carries the trace id, and so does every event appended.
 */
export interface Tracing {
  /**
   * Runs `work` inside the trace that `parent` names (a `traceparent` header or a bare trace id),
   * or inside a new trace when `parent` is missing or malformed.
   */
  run<T>(parent: string | undefined, work: () => T): T;
  /** The current trace id, when running inside a trace. */
  traceId(): string | undefined;
  /** The `traceparent` to hand to the next hop, when running inside a trace. */
  traceparent(): string | undefined;
}
