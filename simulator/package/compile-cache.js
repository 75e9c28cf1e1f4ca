// Where Node's compile cache of the `ncs` command goes: a folder of the user's own, never one another
// local user could have created first. Node's default is <tmp>/node-compile-cache, shared by every user
// of the machine: whoever creates it first owns what the next user's `ncs` loads from it. Shared by the
// source entry (bin/ncs.mjs) and the installed launcher, so kept to old syntax and APIs. Plain
// JavaScript (types in compile-cache.d.ts): the source entry turns the cache on before any TypeScript
// loads, so that Node, finding every stripped file in the cache, never loads its TypeScript stripper
// (60-80 ms of CPU at every start).
import { join } from 'node:path';

/**
 * node:fs and node:os without an ES import, whose facade reads every export: for node:fs that loads
 * fs/promises and its streams, 5-8 ms of CPU at every start (both launchers load this file first).
 * Called only inside functions: the installed launcher evaluates this module on any Node, and only a
 * supported one (22.3 and later have process.getBuiltinModule) calls them.
 */
const fs = () => process.getBuiltinModule('node:fs');
const os = () => process.getBuiltinModule('node:os');

/**
 * The per-user cache folder: XDG_CACHE_HOME or ~/.cache on Linux, ~/Library/Caches on macOS,
 * LOCALAPPDATA on Windows; <tmp>/ncs-sandbox-compile-cache-<uid> when there is no home.
 * @example userCompileCacheDir({ XDG_CACHE_HOME: '/c' }, 'linux', '/home/ana', 1000) // '/c/ncs-sandbox/compile-cache'
 */
export function userCompileCacheDir(env, platform, home, uid) {
  const sub = join('ncs-sandbox', 'compile-cache');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home || os().tmpdir(), 'AppData', 'Local'), sub);
  if (!home) return join(os().tmpdir(), `ncs-sandbox-compile-cache-${uid === undefined ? 'user' : uid}`);
  if (platform === 'darwin') return join(home, 'Library', 'Caches', sub);
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), sub);
}

/**
 * Makes the folder owner-only (0700) and checks it is ours: undefined when it may be used, else why not
 * (a symbolic link, not a folder, or a folder of another user: refused, never loaded from).
 * @example cacheDirProblem('/home/ana/.cache/ncs-sandbox/compile-cache', 1000) // undefined
 */
export function cacheDirProblem(dir, uid) {
  try {
    fs().mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = fs().lstatSync(dir);
    if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
    if (!st.isDirectory()) return `${dir} is not a folder`;
    if (uid !== undefined && st.uid !== uid) return `${dir} belongs to another user (uid ${st.uid})`;
    if (uid !== undefined && (st.mode & 0o077) !== 0) fs().chmodSync(dir, 0o700);
    return undefined;
  } catch (err) {
    return `${dir} cannot be used (${err.code || err.message})`;
  }
}

/**
 * Turns Node's compile cache on in the user's own folder; NODE_COMPILE_CACHE (the user's explicit choice,
 * which Node applies itself at start) and NODE_DISABLE_COMPILE_CACHE are left to Node. A folder that is
 * not the user's own is refused with one line on stderr, and the command runs without a cache.
 * @example enableUserCompileCache(module.enableCompileCache)
 */
export function enableUserCompileCache(enable, env = process.env) {
  if (!enable || env.NODE_COMPILE_CACHE || env.NODE_DISABLE_COMPILE_CACHE) return;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  let home = '';
  try {
    home = os().homedir();
  } catch {
    // No home folder (a service account): the per-uid folder under tmp, checked like any other.
  }
  const dir = userCompileCacheDir(env, process.platform, home, uid);
  const problem = cacheDirProblem(dir, uid);
  if (problem) {
    process.stderr.write(`ncs: compile cache off: ${problem}; remove it or set NODE_COMPILE_CACHE\n`);
    return;
  }
  enable(dir);
}
