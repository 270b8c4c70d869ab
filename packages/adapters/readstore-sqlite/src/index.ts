export { createSqliteReadStore } from './sqlite-read-store.ts';
export { ReadModelFileError, rebuildCommand, removeDatabase as removeSqliteReadStore } from './database.ts';
