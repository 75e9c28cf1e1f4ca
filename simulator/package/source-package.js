// The `ncs` command of a clone, bundled: the same esbuild step as `npm run build` (bundleCli) over the
// clone's current sources, kept as a package folder (package.json, fixtures/, dist/cli/, a node_modules
// link) in the user's cache folder under the hash of every file it is built from. bin/ncs.mjs starts it
// instead of the ~520 TypeScript modules when one matches the sources (the installed package's start
// cost: resolving and loading the modules is two thirds of a start from source), and the test suite's
// globalSetup (simulator/test-support/cli-bundle-setup.ts) runs the CLI suites on it.
//
// Plain JavaScript kept to old syntax and APIs (types in source-package.d.ts): bin/ncs.mjs loads it
// before it has decided to load any TypeScript.
//
// Which bundle matches the sources: source-key.js (a content hash, read from a stat record while no
// file changed).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDirProblem, userCompileCacheDir } from './compile-cache.js';
import { sourcesKey } from './source-key.js';

export { sourcesHash, sourcesKey, sourcesRecordFile } from './source-key.js';

/**
 * A built-in module without an ES import: importing one builds its facade by reading every export,
 * which for node:child_process costs ~8 ms of CPU at every start and for node:fs 5-8 ms (its lazy
 * `promises` loads fs/promises); child_process is needed only on a miss. bin/ncs.mjs loads this module
 * only on a Node that has getBuiltinModule (22.3+; type stripping came later).
 */
const builtin = (name) => process.getBuiltinModule(name);
const { closeSync, openSync, rmSync, statSync, utimesSync } = builtin('node:fs');
const { homedir } = builtin('node:os');

/** How often a running `ncs` of a cached bundle marks its package as in use. */
const IN_USE_TOUCH_MS = 30 * 60_000;
/** A build taking longer than this was killed: its lock no longer holds. */
const STALE_BUILD_MS = 10 * 60_000;

/**
 * The user's own folder of built packages (0700, checked as the compile cache's is: never one another
 * user created); undefined when there is none usable.
 * @example packagesDir() // '/home/ana/.cache/ncs-sandbox/bundles'
 */
export function packagesDir(env = process.env) {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  let home = '';
  try {
    home = homedir();
  } catch {
    // no home folder: the per-uid folder under tmp
  }
  const dir = join(dirname(userCompileCacheDir(env, process.platform, home, uid)), 'bundles');
  return cacheDirProblem(dir, uid) ? undefined : dir;
}

/**
 * The bundle of the clone's current sources, for bin/ncs.mjs: its `ncs-main.cjs` when the cache holds
 * one built from exactly these sources; otherwise undefined, and a build for the next start is begun in
 * a detached background process (see source-package-build.ts) unless one is under way or these same
 * sources failed to build before.
 * @example const main = sourceBundle('/work/clone'); if (main) await import(pathToFileURL(main).href);
 */
export function sourceBundle(root, env = process.env) {
  try {
    return cachedOrBuilding(root, env);
  } catch {
    return undefined; // whatever fails here, the sources still run
  }
}

function cachedOrBuilding(root, env) {
  const dir = packagesDir(env);
  if (!dir) return undefined;
  const key = sourcesKey(root, dir);
  const pkg = join(dir, key);
  const main = join(pkg, 'dist', 'cli', 'ncs-main.cjs');
  try {
    statSync(main);
    touch(pkg);
    // In use while this process runs (a server may run for days, and reads files beside the bundle and
    // requires dependencies through its node_modules link): builds remove packages untouched for 2 h.
    setInterval(() => touch(pkg), IN_USE_TOUCH_MS).unref();
    return main;
  } catch {
    // not built (yet)
  }
  buildInBackground(root, dir, key, env);
  return undefined;
}

/** Marks a package folder as used now; never throws. */
function touch(pkg) {
  try {
    const now = new Date();
    utimesSync(pkg, now, now);
  } catch {
    // removed meanwhile: nothing to keep
  }
}

/** Starts the detached build of `key` unless one holds its lock or it failed before; never throws. */
function buildInBackground(root, dir, key, env) {
  const lock = join(dir, `${key}.building`);
  try {
    statSync(join(dir, `${key}.failed`));
    return; // these sources did not build; an edit makes a new key and a new try
  } catch {
    // no failed build of these sources
  }
  try {
    closeSync(openSync(lock, 'wx'));
  } catch (err) {
    if (err.code !== 'EEXIST') return;
    try {
      if (Date.now() - statSync(lock).mtimeMs < STALE_BUILD_MS) return; // another start is building it
      rmSync(lock, { force: true });
      closeSync(openSync(lock, 'wx'));
    } catch {
      return;
    }
  }
  try {
    const log = env.NCS_BUNDLE_LOG ? openSync(env.NCS_BUNDLE_LOG, 'a') : 'ignore';
    const builder = fileURLToPath(new URL('./source-package-build.ts', import.meta.url));
    const child = builtin('node:child_process').spawn(process.execPath, [builder, root, dir, key], {
      detached: true,
      windowsHide: true,
      stdio: ['ignore', log, log],
      env,
      cwd: root,
    });
    child.on('error', () => rmSync(lock, { force: true }));
    child.unref();
    if (typeof log === 'number') closeSync(log);
  } catch {
    rmSync(lock, { force: true });
  }
}
