import { checkFindOptions, parseCondition, type Filter, type FindOptions } from '@veil/ports';
import {
  createParams,
  documentCondition,
  documentSortKey,
  keyCondition,
  type KeyColumn,
  type Params,
} from './conditions.ts';
import { fieldPath } from './paths.ts';
import { quote } from './sql.ts';

/** What a query needs to know about an index of the collection. */
export interface QueryIndex {
  readonly fields: readonly string[];
  /** The table of (rid, k1, k2, ...) rows, with an index on (k1, k2, ..., rid). */
  readonly table: string;
  /** Some document has more than one key in it (an array field): rows are not one per document. */
  readonly multikey: boolean;
  /** Some string key has characters beyond ASCII. */
  readonly nonAscii: boolean;
}

export interface Query {
  sql: string;
  params: Params['values'];
}

const equalityLike = (condition: unknown) =>
  condition === null || typeof condition !== 'object' || Object.hasOwn(condition, '$in');

/** How many leading fields of the index the filter fixes to a value (or a list of values). */
const fixedPrefix = (index: QueryIndex, filter: Filter) => {
  let fixed = 0;
  while (fixed < index.fields.length && Object.hasOwn(filter, index.fields[fixed]!)) {
    if (!equalityLike(filter[index.fields[fixed]!])) break;
    fixed++;
  }
  return fixed;
};

/**
 * The index a query goes through, as a small planner: the one whose first fields the filter
 * fixes to values (the more the better; then one whose next field is the sort's, so a page
 * comes in order and stops early). Failing that, a single-key index whose first field is the
 * sort's or has a condition: walked in order, or over its keys instead of the documents (a
 * search by name). A multikey index only narrows by the values it is fixed to: it has several
 * rows per document. SQLite then plans inside that shape; query-plans.int.test.ts checks the
 * app's queries use their indexes.
 */
const chooseIndex = (indexes: readonly QueryIndex[], filter: Filter, sortFields: string[]) => {
  let best: { index: QueryIndex; score: number } | undefined;
  for (const index of indexes) {
    const fixed = fixedPrefix(index, filter);
    let score = fixed * 4;
    if (!index.multikey) {
      const ordered = index.fields[fixed] === sortFields[0] || (!sortFields.length && fixed > 0);
      const conditioned = Object.hasOwn(filter, index.fields[0]!);
      score += (ordered ? 2 : 0) + (ordered || conditioned ? 1 : 0);
    }
    if (score > 0 && (!best || score > best.score)) best = { index, score };
  }
  return best?.index;
};

/** `SELECT <what>` of the documents a filter matches, in the order and number asked for. */
export const buildQuery = (
  collectionTable: string,
  indexes: readonly QueryIndex[],
  what: 'documents' | 'count',
  filter: Filter = {},
  options: FindOptions = {},
): Query => {
  checkFindOptions(options);
  const params = createParams();
  const sort = Object.entries(options.sort ?? {});
  const index = chooseIndex(
    indexes,
    filter,
    sort.map(([field]) => field),
  );
  const docs = `${quote(collectionTable)} AS d`;
  const conditions: string[] = [];
  /** The column of an index field rows can be read from directly (single-key index only). */
  const columnOf = (field: string): KeyColumn | undefined => {
    if (field === '_id') return { sql: 'd.id', asciiOnly: false };
    const at = index && !index.multikey ? index.fields.indexOf(field) : -1;
    return at >= 0 ? { sql: `x.k${at + 1}`, asciiOnly: !index!.nonAscii } : undefined;
  };

  let from = docs;
  if (index && !index.multikey) {
    // Walk the index, join each row's document: pages come in index order, without a sort.
    from = `${quote(index.table)} AS x CROSS JOIN ${docs} ON d.rowid = x.rid`;
  } else if (index) {
    // Several rows per document: narrow by the fixed fields, then test whole documents.
    const fixed = index.fields.slice(0, fixedPrefix(index, filter));
    const narrowing = fixed.map((field, at) =>
      keyCondition(params, { sql: `k${at + 1}`, asciiOnly: false }, parseCondition(field, filter[field]!)),
    );
    conditions.push(`d.rowid IN (SELECT rid FROM ${quote(index.table)} WHERE ${narrowing.join(' AND ')})`);
  }

  for (const [field, condition] of Object.entries(filter)) {
    const parsed = parseCondition(field, condition);
    const column = columnOf(field);
    conditions.push(
      column ? keyCondition(params, column, parsed) : documentCondition(params, fieldPath(field), parsed),
    );
  }
  const where = conditions.length ? ` WHERE ${conditions.join(' AND ')}` : '';

  if (what === 'count') return { sql: `SELECT count(*) AS n FROM ${from}${where}`, params: params.values };

  const order = sort.map(([field, direction]) => {
    const key = columnOf(field)?.sql ?? documentSortKey(params, fieldPath(field));
    return `${key} ${direction === 1 ? 'ASC' : 'DESC'}`;
  });
  let sql = `SELECT d.doc AS doc FROM ${from}${where}`;
  if (order.length) sql += ` ORDER BY ${order.join(', ')}`;
  if (options.limit !== undefined) sql += ` LIMIT ${params.bind(options.limit)}`;
  return { sql, params: params.values };
};
