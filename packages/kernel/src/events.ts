import type { DomainEvent } from '@veil/contracts';
import type { Clock, IdGenerator } from '@veil/ports';

/** Builds an event envelope; time and id come from the ports so tests stay deterministic. */
export const newEvent = <TType extends string, TData>(
  deps: { clock: Clock; ids: IdGenerator },
  type: TType,
  streamId: string,
  data: TData,
): DomainEvent<TType, TData> => ({
  type,
  data,
  streamId,
  eventId: deps.ids.next(),
  occurredAt: deps.clock.now().toISOString(),
  schemaVersion: 1,
});
