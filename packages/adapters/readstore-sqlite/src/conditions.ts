import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { ParsedCondition, RangeBound, Scalar } from '@veil/ports';
import { keyOf } from './index-keys.ts';
import type { FieldPath } from './paths.ts';

/**
 * The port's filter language as SQL, with MongoDB's meaning (read-store.port.ts). Two forms:
 *  - on the stored JSON (`d.doc`), for any field: each test applies to the value or, when it is
 *    an array, to each element (json_each), checking JSON types so `false` is never `0`;
 *  - on an index column (`x.k1`) holding keys (index-keys.ts), whose types already tell
 *    numbers, strings, booleans and null apart, written as ranges SQLite can walk in order.
 * Every value is a bound parameter; paths are bound too.
 */
export interface Params {
  readonly values: SQLInputValue[];
  /** Binds a value; returns its numbered placeholder, usable more than once. */
  bind(value: SQLInputValue): string;
}

export const createParams = (): Params => {
  const values: SQLInputValue[] = [];
  return {
    values,
    bind(value) {
      values.push(value);
      return `?${values.length}`;
    },
  };
};

const operators: Record<RangeBound, string> = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' };

/** Lower case as JavaScript's toLowerCase: SQLite's lower() for ASCII text, the registered function otherwise. */
export const foldCase = (text: string) =>
  `(CASE WHEN length(${text}) = octet_length(${text}) THEN lower(${text}) ELSE unicode_lower(${text}) END)`;
export const registerFoldCase = (db: DatabaseSync) =>
  db.function('unicode_lower', { deterministic: true }, (text) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );

/** A test of one JSON element, given SQL for its json_type and its SQL value. */
type ElementTest = (type: string, value: string) => string;

const equalsElement =
  (params: Params, wanted: Scalar): ElementTest =>
  (type, value) => {
    if (wanted === null) return `${type} = 'null'`;
    if (typeof wanted === 'boolean') return `${type} = '${wanted}'`;
    const kind = typeof wanted === 'number' ? `IN ('integer', 'real')` : `= 'text'`;
    return `(${type} ${kind} AND ${value} = ${params.bind(wanted)})`;
  };

/** The value passes, or, for an array, one of its elements does. */
const anyElement = (params: Params, path: FieldPath, test: ElementTest) => {
  const at = params.bind(path.json);
  const each = `EXISTS (SELECT 1 FROM json_each(d.doc, ${at}) AS e WHERE ${test('e.type', 'e.value')})`;
  const self = test(`json_type(d.doc, ${at})`, `(d.doc ->> ${at})`);
  return `(CASE json_type(d.doc, ${at}) WHEN 'array' THEN ${each} ELSE ${self} END)`;
};

const missing = (params: Params, path: FieldPath) => `json_type(d.doc, ${params.bind(path.json)}) IS NULL`;

/** A condition on a field of the stored document. */
export const documentCondition = (params: Params, path: FieldPath, condition: ParsedCondition): string => {
  switch (condition.kind) {
    case 'in': {
      if (!condition.values.length) return '0';
      const tests = condition.values.map((value) => equalsElement(params, value));
      const any = anyElement(params, path, (type, value) =>
        tests.map((test) => test(type, value)).join(' OR '),
      );
      // `null` also matches a field that is not there.
      return condition.values.includes(null) ? `(${missing(params, path)} OR ${any})` : any;
    }
    case 'contains': {
      const needle = params.bind(condition.needle);
      return anyElement(
        params,
        path,
        (type, value) => `(${type} = 'text' AND instr(${foldCase(value)}, ${needle}) > 0)`,
      );
    }
    case 'range':
      return condition.bounds
        .map(([bound, limit]) =>
          anyElement(params, path, (type, value) => {
            const kind = typeof limit === 'number' ? `IN ('integer', 'real')` : `= 'text'`;
            return `(${type} ${kind} AND ${value} ${operators[bound]} ${params.bind(limit)})`;
          }),
        )
        .join(' AND ');
  }
};

/** A column of keys (or `_id`), and whether every string in it is ASCII so far. */
export interface KeyColumn {
  sql: string;
  asciiOnly: boolean;
}

export const hasNonAscii = (text: string) => /[\u0080-\uffff]/.test(text);
const likePattern = (needle: string) => `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * A condition on a column of keys. Ranges are fenced to their type by where SQLite orders
 * types: numbers below every string (`''`), strings below every blob (`x''`). `$icontains` on
 * ASCII keys with an ASCII needle is a LIKE, whose case folding (ASCII only) is then exactly
 * JavaScript's and which costs a third of lower() and instr() on every key a search walks.
 */
export const keyCondition = (params: Params, column: KeyColumn, condition: ParsedCondition): string => {
  const { sql } = column;
  switch (condition.kind) {
    case 'in': {
      const values = condition.values.filter((value) => value !== null);
      const listed = values.length
        ? `${sql} IN (${values.map((v) => params.bind(keyOf(v))).join(', ')})`
        : '';
      const nulls = values.length < condition.values.length ? `${sql} IS NULL` : '';
      return `(${[listed, nulls].filter(Boolean).join(' OR ') || '0'})`;
    }
    case 'contains': {
      // Strings only, as bounds of the walk rather than a test of each key.
      const strings = `${sql} >= '' AND ${sql} < x''`;
      const { needle } = condition;
      if (column.asciiOnly && !hasNonAscii(needle)) {
        return `(${strings} AND ${sql} LIKE ${params.bind(likePattern(needle))} ESCAPE '\\')`;
      }
      return `(${strings} AND instr(${foldCase(sql)}, ${params.bind(needle)}) > 0)`;
    }
    case 'range':
      return condition.bounds
        .map(([bound, limit]) => {
          const test = `${sql} ${operators[bound]} ${params.bind(limit)}`;
          const above = bound === '$gt' || bound === '$gte';
          if (typeof limit === 'number') return above ? `${test} AND ${sql} < ''` : test;
          return above ? `${test} AND ${sql} < x''` : `${test} AND ${sql} >= ''`;
        })
        .join(' AND ');
  }
};

/**
 * A sort key from the stored document: numbers and strings as they are, missing and null as
 * NULL (first ascending, as in MongoDB), other types after strings.
 */
export const documentSortKey = (params: Params, path: FieldPath): string => {
  const at = params.bind(path.json);
  return (
    `(CASE json_type(d.doc, ${at}) WHEN 'true' THEN x'06' WHEN 'false' THEN x'05' ` +
    `WHEN 'object' THEN x'03' WHEN 'array' THEN x'04' ELSE d.doc ->> ${at} END)`
  );
};
