export {
  createSqliteReadStore,
  logCompanionModule,
  type CommitEncoder,
  type SharedLogWriter,
  type SqliteReadStore,
} from './sqlite-read-store.ts';
export {
  holdFileLock as lockReadModelFile,
  ReadModelFileError,
  rebuildCommand,
  removeDatabase as removeSqliteReadStore,
} from './database.ts';
