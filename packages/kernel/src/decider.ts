import type { Context, EventData, EventOf } from '@veil/contracts';
import type { Clock, ContextEventStore, IdGenerator } from '@veil/ports';
import type { Aggregate } from './aggregate.ts';
import { newEvent } from './events.ts';

/** An event a decision records, before its envelope (id, stream, time) is put on. */
export type Decided<C extends Context> = {
  [T in EventOf<C>['type']]: { type: T; data: EventData<T> };
}[EventOf<C>['type']];

/**
 * Emmett's decider: one stream's rules as pure functions. `evolve` folds the stream into its
 * state; `decide` takes a command and that state and answers the events to record (none when
 * nothing changes) or throws the refusal. The handler around it does the I/O: it reads the
 * stream, reads what else the command needs into the command, calls `decide` and appends what
 * was decided with the version it read, so a concurrent writer makes it decide again.
 */
export interface Decider<
  Command,
  State,
  C extends Context,
  E extends Decided<C> = Decided<C>,
> extends Aggregate<State, C> {
  decide(command: Command, state: State): E[];
}

/**
 * Appends what a decider decided to its stream, each event after the one before, the first
 * with the version the decision was made on. Answers each event's position.
 */
export const appendDecided = async <C extends Context>(
  deps: { store: ContextEventStore; clock: Clock; ids: IdGenerator },
  context: C,
  streamId: string,
  decided: readonly Decided<C>[],
  version: number,
): Promise<number[]> => {
  const positions: number[] = [];
  let expectedVersion = version;
  for (const { type, data } of decided) {
    const event = newEvent(deps, type, streamId, data) as EventOf<C>;
    ({ position: expectedVersion } = await deps.store.append(context, event, { expectedVersion }));
    positions.push(expectedVersion);
  }
  return positions;
};
