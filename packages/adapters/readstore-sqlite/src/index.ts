export { createSqliteReadStore } from './sqlite-read-store.ts';
export { ReadModelFileError, rebuildCommand } from './database.ts';
