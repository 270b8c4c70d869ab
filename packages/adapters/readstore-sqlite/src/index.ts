export { createSqliteReadStore, logCompanionModule } from './sqlite-read-store.ts';
export {
  holdFileLock as lockReadModelFile,
  ReadModelFileError,
  rebuildCommand,
  removeDatabase as removeSqliteReadStore,
} from './database.ts';
