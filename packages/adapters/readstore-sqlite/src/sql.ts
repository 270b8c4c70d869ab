/** An SQL identifier in double quotes (table names are built from collection names). */
export const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** SQLite's result codes this adapter tells apart (the primary code, without extended bits). */
export const sqliteCode = (error: unknown): number | undefined => {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
};
export const SQLITE_BUSY = 5;
export const SQLITE_CORRUPT = 11;
export const SQLITE_NOTADB = 26;
export const SQLITE_CONSTRAINT = 19;
