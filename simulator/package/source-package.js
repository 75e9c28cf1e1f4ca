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
// Freshness: the key is a SHA-256 of the content of every file (~435 files, 1.8 MB), read at every
// start, not of their sizes and modification times. Measured on the project machine under load (first
// call in a fresh Node 24 process, nine each): the folder walk ~12 ms of CPU, plus 17 ms to stat every
// file or 30 ms to read and hash it. The ~13 ms the stat key would save can be wrong: timestamps move in
// clock ticks (an edit of the same size within one tick keeps size and times), and `cp -p`, `tar`,
// `rsync -a`, `touch -r` and editors that keep times write new content under old times. A start that
// silently runs yesterday's code costs a developer far more than 13 ms, so content decides.
import { closeSync, openSync, readdirSync, readSync, rmSync, statSync, utimesSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDirProblem, userCompileCacheDir } from './compile-cache.js';

/**
 * A built-in module without an ES import: importing one builds its facade by reading every export,
 * which for node:child_process costs ~8 ms of CPU at every start (and crypto's lazy getters load web
 * crypto); the launcher needs crypto's createHash, and child_process only on a miss.
 */
const builtin = (name) => process.getBuiltinModule(name);

/** Folders whose files make the bundle; tests (`*.test.ts`), e2e suites and benchmarks are not in it. */
const SOURCES = ['bin', 'simulator', 'conformance'];
const SKIPPED_NAMES = ['e2e', 'bench'];
/** Files beside them the package carries or is built with (node_modules/.package-lock.json: the installed versions). */
const ALSO = ['package.json', 'fixtures/hospitality.json', 'node_modules/.package-lock.json'];
/** How often a running `ncs` of a cached bundle marks its package as in use. */
const IN_USE_TOUCH_MS = 30 * 60_000;
/** A build taking longer than this was killed: its lock no longer holds. */
const STALE_BUILD_MS = 10 * 60_000;

/**
 * The hash of every file the package is built from, and of the clone's folder (the package links to
 * its node_modules).
 * @example sourcesHash('/work/clone') // '287f24a00f9993cdc998'
 */
export function sourcesHash(clone) {
  const root = resolve(clone); // one key whether the folder is given with a trailing slash or not
  const files = ALSO.slice();
  const walk = (dir, rel) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_NAMES.includes(entry.name)) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${rel}${entry.name}/`);
      else if (entry.isFile() && !entry.name.endsWith('.test.ts')) files.push(rel + entry.name);
    }
  };
  for (const dir of SOURCES) walk(join(root, dir), `${dir}/`);
  const hash = builtin('node:crypto').createHash('sha256').update(`${root}\0`);
  // One reused buffer: no allocation and no fstat per file (~10 % of the check's CPU against readFileSync).
  const buffer = Buffer.allocUnsafe(1 << 16);
  for (const file of files.sort()) {
    hash.update(`${file}\0`);
    let fd;
    try {
      fd = openSync(join(root, file), 'r');
    } catch (err) {
      // node_modules/.package-lock.json is npm's; another package manager may not write it
      if (err.code !== 'ENOENT' || !ALSO.includes(file)) throw err;
      hash.update('\0missing\0');
      continue;
    }
    try {
      for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
    } finally {
      closeSync(fd);
    }
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 20);
}

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
 * The bundle of the clone's current sources, for bin/ncs.mjs: its `ncs-main.js` when the cache holds
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
  const key = sourcesHash(root);
  const pkg = join(dir, key);
  const main = join(pkg, 'dist', 'cli', 'ncs-main.js');
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
