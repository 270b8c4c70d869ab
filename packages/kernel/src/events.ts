import type { EventData, EventOfType, VeilEventType } from '@veil/contracts';
import type { Clock, IdGenerator } from '@veil/ports';

/**
 * Builds an event envelope; time and id come from the ports so tests stay deterministic. The
 * type must be one of the contracts' events and the payload must be that event's: the compiler
 * refuses anything else. An idempotent command passes its own `eventId` (derived from the
 * client's key), so the log stores a retry once.
 */
export const newEvent = <TType extends VeilEventType>(
  deps: { clock: Clock; ids: IdGenerator },
  type: TType,
  streamId: string,
  data: EventData<TType>,
  eventId: string = deps.ids.next(),
): EventOfType<TType> =>
  ({
    type,
    data,
    streamId,
    eventId,
    occurredAt: deps.clock.now().toISOString(),
    schemaVersion: 1,
  }) as EventOfType<TType>;
