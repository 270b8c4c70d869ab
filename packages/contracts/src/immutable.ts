/**
 * Freezes a JSON-like value and everything inside it, in place, and returns it. The embedded
 * adapters share stored events and read-model documents with their callers instead of copying
 * them on every read; freezing makes a caller's mutation throw (ES modules are strict) instead
 * of silently changing what is stored.
 */
export const deepFreeze = <T>(value: T): T => {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const inner of Object.values(value)) deepFreeze(inner);
  return value;
};
