/**
 * The data dir cannot be used: locked by another process, not a database, or holding a record that
 * does not load. The message names the file (and table) and says what to do; `ncs serve` prints it
 * and exits 2 instead of a parser's or runtime's text.
 * @example throw new PersistenceError(`${file} is empty (0 bytes): not an ncs-sandbox database.`);
 */
export class PersistenceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PersistenceError';
  }
}
