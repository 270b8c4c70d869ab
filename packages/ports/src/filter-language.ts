import type { Comparable, FieldCondition, FindOptions } from './read-store.port.ts';

/**
 * The filter language's shapes, checked the same way by every read store (filters and options
 * are plain objects at run time), so a condition one store refuses no store accepts. Each
 * condition comes out in one of three forms for the store to translate.
 */
export type Scalar = Comparable | boolean | null;
export type RangeBound = '$gt' | '$gte' | '$lt' | '$lte';
export const rangeBounds: readonly RangeBound[] = ['$gt', '$gte', '$lt', '$lte'];

export type ParsedCondition =
  /** Equal to one of the values (`{ f: v }` is a list of one). */
  | { kind: 'in'; values: Scalar[] }
  /** `$icontains`, the needle already lower-cased. */
  | { kind: 'contains'; needle: string }
  | { kind: 'range'; bounds: [RangeBound, Comparable][] };

const isScalar = (value: unknown): value is Scalar =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

const invalid = (path: string, why: string) => new Error(`Unsupported condition on ${path}: ${why}`);

export const parseCondition = (path: string, condition: FieldCondition): ParsedCondition => {
  if (isScalar(condition)) return { kind: 'in', values: [condition] };
  if (typeof condition !== 'object' || Array.isArray(condition)) {
    throw invalid(path, 'a string, number, boolean, null or an operator object');
  }
  const keys = Object.keys(condition);
  if ('$in' in condition) {
    if (keys.length !== 1 || !Array.isArray(condition.$in) || !condition.$in.every(isScalar)) {
      throw invalid(path, '$in takes a list of strings, numbers, booleans or null, alone');
    }
    return { kind: 'in', values: condition.$in };
  }
  if ('$icontains' in condition) {
    if (keys.length !== 1 || typeof condition.$icontains !== 'string') {
      throw invalid(path, '$icontains takes a string, alone');
    }
    return { kind: 'contains', needle: condition.$icontains.toLowerCase() };
  }
  const range = condition as Partial<Record<RangeBound, unknown>>;
  if (!keys.length || !keys.every((key) => rangeBounds.includes(key as RangeBound))) {
    throw invalid(path, `operators are $in, $icontains, ${rangeBounds.join(', ')}`);
  }
  return {
    kind: 'range',
    bounds: rangeBounds.flatMap((bound): [RangeBound, Comparable][] => {
      const value = range[bound];
      if (value === undefined) return [];
      if (typeof value !== 'string' && (typeof value !== 'number' || Number.isNaN(value))) {
        throw invalid(path, `${bound} takes a number or a string`);
      }
      return [[bound, value]];
    }),
  };
};

/** Sort directions are 1 or -1; a limit is a positive integer. */
export const checkFindOptions = (options: FindOptions = {}): void => {
  for (const [field, direction] of Object.entries(options.sort ?? {})) {
    if (direction !== 1 && direction !== -1) throw new Error(`Sort direction of ${field} must be 1 or -1`);
  }
  const { limit } = options;
  if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 1)) {
    throw new Error(`A limit must be a positive integer, not ${limit}`);
  }
};
