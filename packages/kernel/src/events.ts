import type { DomainEvent } from '@veil/contracts';
import type { Clock, IdGenerator } from '@veil/ports';

/**
 * Builds an event envelope; time and id come from the ports so tests stay deterministic. An
 * idempotent command passes its own `eventId` (derived from the client's key), so the log stores
 * a retry once.
 */
export const newEvent = <TType extends string, TData>(
  deps: { clock: Clock; ids: IdGenerator },
  type: TType,
  streamId: string,
  data: TData,
  eventId: string = deps.ids.next(),
): DomainEvent<TType, TData> => ({
  type,
  data,
  streamId,
  eventId,
  occurredAt: deps.clock.now().toISOString(),
  schemaVersion: 1,
});
