import type { ContextEventBus, EventBus } from '@veil/ports';

/**
 * An adapter's log as services see it, typed by context. Sound because services append only
 * through the typed `append`: a context's log holds only what was appended to it as one of that
 * context's events.
 */
export const byContext = (bus: EventBus): ContextEventBus => bus as unknown as ContextEventBus;
