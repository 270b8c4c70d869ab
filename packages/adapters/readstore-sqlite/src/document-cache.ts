/**
 * The documents most recently read by id, as their stored JSON, for the store whose writes all
 * pass through this process (the file's lock makes it the only writer). A read by id is then a
 * parse instead of a trip through SQLite, which must begin again after every commit of the writer
 * thread (its page cache is dropped whenever the file changes). Entries change only once a write
 * is committed, so a hit is always what the file holds; a put refreshes a document only if it is
 * here already, so writes of documents nobody reads by id (new messages) do not push out the ones
 * that are (memberships, chats, names). A document found missing is remembered as missing too (a
 * send asks for blocks that mostly do not exist), until a put of it commits. Bounded by the size
 * of the JSON it holds, oldest read first.
 */
export class DocumentCache {
  /** What `get` answers for a document known not to exist (no stored JSON is empty). */
  static readonly missing = '';

  readonly #maxChars: number;
  #chars = 0;
  /** `collection \0 id` -> JSON, or `missing`; Map order is the eviction order. */
  readonly #entries = new Map<string, string>();

  constructor(maxChars: number) {
    this.#maxChars = maxChars;
  }

  static #key(collection: string, id: string) {
    return `${collection}\u0000${id}`;
  }

  /** The cached JSON, `missing` when the document is known not to exist, undefined when unknown. */
  get(collection: string, id: string): string | undefined {
    const key = DocumentCache.#key(collection, id);
    const json = this.#entries.get(key);
    if (json !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, json);
    }
    return json;
  }

  /** A document read from the file, or `missing` when the file has none with this id. */
  remember(collection: string, id: string, json: string) {
    if (json.length > this.#maxChars / 64) return;
    this.#set(DocumentCache.#key(collection, id), json);
    for (const [key, old] of this.#entries) {
      if (this.#chars <= this.#maxChars) break;
      this.#remove(key, old);
    }
  }

  /**
   * A put committed: the new JSON replaces a cached copy. A document remembered as missing is
   * forgotten instead, to be read when it is next asked for: every new message was first looked
   * up (missing), and keeping them all would push out what is read by id.
   */
  stored(collection: string, id: string, json: string) {
    const key = DocumentCache.#key(collection, id);
    const old = this.#entries.get(key);
    if (old === DocumentCache.missing) this.#remove(key, old);
    else if (old !== undefined) this.#set(key, json);
  }

  /** A delete committed. */
  deleted(collection: string, id: string) {
    const key = DocumentCache.#key(collection, id);
    const old = this.#entries.get(key);
    if (old !== undefined) this.#remove(key, old);
  }

  /** A collection cleared. */
  cleared(collection: string) {
    const prefix = `${collection}\u0000`;
    for (const [key, old] of this.#entries) if (key.startsWith(prefix)) this.#remove(key, old);
  }

  #set(key: string, json: string) {
    const old = this.#entries.get(key);
    if (old !== undefined) this.#remove(key, old);
    this.#entries.set(key, json);
    // A missing entry still costs its key and slot.
    this.#chars += Math.max(json.length, key.length);
  }

  #remove(key: string, json: string) {
    this.#entries.delete(key);
    this.#chars -= Math.max(json.length, key.length);
  }
}
