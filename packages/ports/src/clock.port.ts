/** Time and ids come from ports so domain code stays deterministic in tests. */
export interface Clock {
  now(): Date;
}

export interface IdGenerator {
  /** A new ULID: unique, sortable by creation time, subject-safe. */
  next(): string;
}

export interface Logger {
  debug(obj: object | string, msg?: string): void;
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
  child(bindings: Record<string, unknown>): Logger;
}
