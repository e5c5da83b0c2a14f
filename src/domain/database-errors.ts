// How the layers above the domain tell database failures apart (a restart to retry or answer
// 503, a row too large to index, a driver error to log without its values); src/http reaches
// them through here, never from src/db (eslint.config.mjs).
export {
  CONNECTION_RETRY_BUDGET_MS,
  isConnectionError,
  retryOnConnectionError,
} from '../db/connection-errors';
export { isSearchIndexTooLarge, withoutStatementValues } from '../db/database-errors';
