// Types of source-key.js (plain JavaScript: see there why).

/**
 * The hash of every file the package is built from, and of the clone's folder.
 * @example sourcesHash('/work/clone') // '287f24a00f9993cdc998'
 */
export function sourcesHash(root: string): string;

/**
 * Where the stat record of a clone's sources is kept in `dir` (one per clone folder).
 * @example sourcesRecordFile('/work/clone', packagesDir()!) // '.../bundles/sources-5f3a09c1.json'
 */
export function sourcesRecordFile(root: string, dir: string): string;

/**
 * sourcesHash(root), read from the stat record in `dir` when no file or folder changed since it was
 * made (size, mtime and ctime in ns, inode), else hashed from the content and recorded when every file is
 * older than `racyMs` (default 2,000).
 * @example sourcesKey('/work/clone', packagesDir()!) // '287f24a00f9993cdc998'
 */
export function sourcesKey(root: string, dir: string, racyMs?: number): string;

/**
 * Files written within this margin (ms) of a record could change again unseen in the same clock tick: a
 * record is made only when every file is older.
 */
export const RACY_MS: number;
