import type { EventBus, Tracing } from '@veil/ports';

/**
 * Events appended inside a trace carry its id (`traceId` beside the envelope's other fields), so
 * whoever handles the event later, in any process, can log under the request that caused it.
 */
export const stampTraceIds = (bus: EventBus, tracing: Tracing): EventBus => ({
  ...bus,
  append(context, event, options) {
    const traceId = event.traceId ?? tracing.traceId();
    return bus.append(context, traceId ? { ...event, traceId } : event, options);
  },
});
