// Types of compile-cache.js (plain JavaScript: see there why).

/**
 * The per-user cache folder: XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
 * LOCALAPPDATA on Windows; <tmp>/ncs-sandbox-compile-cache-<uid> when there is no home.
 * @example userCompileCacheDir({ XDG_CACHE_HOME: '/c' }, 'linux', '/home/ana', 1000) // '/c/ncs-sandbox/compile-cache'
 */
export function userCompileCacheDir(
  env: Record<string, string | undefined>,
  platform: string,
  home: string,
  uid: number | undefined,
): string;

/**
 * Makes the folder owner-only (0700) and checks it is ours: undefined when it may be used, else why not.
 * @example cacheDirProblem('/home/ana/.cache/ncs-sandbox/compile-cache', 1000) // undefined
 */
export function cacheDirProblem(dir: string, uid: number | undefined): string | undefined;

/**
 * Turns Node's compile cache on in the user's own folder (NODE_COMPILE_CACHE and
 * NODE_DISABLE_COMPILE_CACHE are left to Node).
 * @example enableUserCompileCache(module.enableCompileCache)
 */
export function enableUserCompileCache(
  enable: ((dir: string) => unknown) | undefined,
  env?: Record<string, string | undefined>,
): void;
