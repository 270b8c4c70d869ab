import type { Doc, FieldCondition, Filter } from '@veil/ports';
import { compare } from './order.ts';

/** The port's filter language (a subset of MongoDB's) evaluated on documents in memory. */
type Path = string;

const valueAtKeys = (doc: unknown, keys: readonly string[]): unknown => {
  let current = doc as Record<string, unknown> | undefined;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = current[key] as Record<string, unknown> | undefined;
  }
  return current;
};

export const valueAt = (doc: unknown, path: Path): unknown => valueAtKeys(doc, path.split('.'));

const equalsOrContains = (stored: unknown, wanted: unknown) =>
  Array.isArray(stored)
    ? stored.includes(wanted)
    : stored === wanted || (stored === undefined && wanted === null);

const conditionTest = (condition: FieldCondition): ((stored: unknown) => boolean) => {
  if (condition === null || typeof condition !== 'object') {
    return (stored) => equalsOrContains(stored, condition);
  }
  if ('$in' in condition) {
    const wanted = condition.$in;
    return (stored) => wanted.some((v) => equalsOrContains(stored, v));
  }
  if ('$icontains' in condition) {
    const needle = condition.$icontains.toLowerCase();
    return (stored) => typeof stored === 'string' && stored.toLowerCase().includes(needle);
  }
  const { $gt, $gte, $lt, $lte } = condition as {
    $gt?: unknown;
    $gte?: unknown;
    $lt?: unknown;
    $lte?: unknown;
  };
  return (stored) =>
    stored !== undefined &&
    stored !== null &&
    ($gt === undefined || compare(stored, $gt) > 0) &&
    ($gte === undefined || compare(stored, $gte) >= 0) &&
    ($lt === undefined || compare(stored, $lt) < 0) &&
    ($lte === undefined || compare(stored, $lte) <= 0);
};

/**
 * A filter as one predicate, built once per query: paths split and needles lower-cased once,
 * not for every document a search scans.
 */
export const compileFilter = (filter: Filter): ((doc: Doc) => boolean) => {
  const tests = Object.entries(filter).map(([path, condition]) => {
    const keys = path.split('.');
    const test = conditionTest(condition);
    return (doc: Doc) => test(valueAtKeys(doc, keys));
  });
  return (doc) => tests.every((test) => test(doc));
};
