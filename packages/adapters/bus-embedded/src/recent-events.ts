import type { RecordedEvent } from '@veil/ports';

/**
 * The newest durable events of one context, at most `capacity` of them: followers at the head of
 * the log (the realtime fan-out, projections) read what was just appended from here instead of
 * from disk. Older events are dropped as new ones arrive, so the heap stays flat as the log grows.
 */
export class RecentEvents {
  readonly #capacity: number;
  readonly #byPosition = new Map<number, RecordedEvent>();

  constructor(capacity: number) {
    this.#capacity = capacity;
  }

  add(recorded: RecordedEvent) {
    this.#byPosition.set(recorded.position, recorded);
    this.#byPosition.delete(recorded.position - this.#capacity);
  }

  /** Drops an erased event. */
  forget(position: number) {
    this.#byPosition.delete(position);
  }

  /** Events after `position` up to `head` (at most `limit`), or null unless the first is held. */
  after(position: number, head: number, limit: number): RecordedEvent[] | null {
    if (!this.#byPosition.has(position + 1)) return null;
    const found: RecordedEvent[] = [];
    for (let p = position + 1; p <= head && found.length < limit; p++) {
      const recorded = this.#byPosition.get(p);
      if (!recorded) break;
      found.push(recorded);
    }
    return found;
  }
}
