/** The order the embedded store sorts in: missing values first, then `<` (numbers, strings). */
export const compare = (a: unknown, b: unknown): number => {
  if (a === b) return 0;
  if (a === undefined || a === null) return -1;
  if (b === undefined || b === null) return 1;
  return (a as number | string) < (b as number | string) ? -1 : 1;
};

/**
 * A binary search: the first index below `length` at which `isBefore` turns false, for an
 * `isBefore` that holds for every index up to some point and for none after it.
 */
export const partitionPoint = (length: number, isBefore: (index: number) => boolean): number => {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isBefore(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
};

/**
 * The first `limit` items in `order`, as a stable sort would give them, without sorting them
 * all: a search that matches most of 100,000 users and wants the first 200 by name keeps a
 * sorted page and lets each later match in only if it sorts before the page's last.
 */
export const firstInOrder = <T>(items: readonly T[], limit: number, order: (a: T, b: T) => number): T[] => {
  const page: T[] = [];
  if (limit <= 0) return page;
  for (const item of items) {
    if (page.length === limit && order(item, page[limit - 1]!) >= 0) continue;
    // After every equal item already kept: ties stay in the order they came.
    page.splice(
      partitionPoint(page.length, (i) => order(page[i]!, item) <= 0),
      0,
      item,
    );
    if (page.length > limit) page.pop();
  }
  return page;
};
