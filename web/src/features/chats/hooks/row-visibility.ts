/** One observer for every chat-list row: rows register what to do when they first show. */
const whenShown = new WeakMap<Element, Set<() => void>>();
let observer: IntersectionObserver | undefined;
const sharedObserver = () =>
  (observer ??= new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const work = whenShown.get(entry.target);
      whenShown.delete(entry.target);
      observer?.unobserve(entry.target);
      for (const run of work ?? []) run();
    }
  }));

/**
 * Runs `work` once `element` first comes into view (soon after this call when it already is).
 * A row may wait for several things (its preview, its title); the returned function drops this one.
 */
export const whenRowShown = (element: Element, work: () => void): (() => void) => {
  const waiting = whenShown.get(element) ?? new Set();
  waiting.add(work);
  whenShown.set(element, waiting);
  sharedObserver().observe(element);
  return () => {
    waiting.delete(work);
    if (waiting.size > 0) return;
    whenShown.delete(element);
    observer?.unobserve(element);
  };
};
