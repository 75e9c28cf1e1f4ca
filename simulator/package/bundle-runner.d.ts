// Types of bundle-runner.js (plain JavaScript: see there why).

/**
 * The user's own folder of code caches (0700); undefined when caching is off or impossible.
 * @example codeCacheDir() // '/home/ana/.cache/ncs-sandbox/code-cache'
 */
export function codeCacheDir(env?: Record<string, string | undefined>): string | undefined;

/**
 * The command a start runs, as far as the cache is concerned: its first word that is not an option.
 * @example commandOf(['serve', '--port', '0']) // 'serve'
 */
export function commandOf(args: readonly string[]): string;

/**
 * The cache file of this bundle's content (text or bytes) for this Node, its flags (`execArgv`, NODE_OPTIONS) and this command.
 * @example cacheFileName(source, ['serve']) // 'serve-3f0c...e1.v8'
 */
export function cacheFileName(
  source: string | Uint8Array,
  args: readonly string[],
  env?: Record<string, string | undefined>,
  execArgv?: readonly string[],
): string;

/**
 * Runs the CommonJS bundle `file` with the code cache of its earlier starts (written when there was none).
 * @example runBundle('/usr/lib/node_modules/ncs-sandbox/dist/cli/ncs-main.cjs')
 */
export function runBundle(file: string, env?: Record<string, string | undefined>): unknown;
