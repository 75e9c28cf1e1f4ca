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
// Freshness, as git decides a file is unchanged: the key is a SHA-256 of the content of every file
// (~435 files, 1.8 MB), and a start reads it from a record of the files' stat (size, modification and
// change times in ns, inode; every folder's too, so an added or removed file is seen) when none of them
// changed since the record was made. The change time (ctime) is what makes that sound: `touch -r`,
// `cp -p`, `tar`, `rsync -a` and editors that keep times can set a file's modification time back, never
// its change time, which the kernel sets to now on every write, rename or `utimes`. A record is written
// only when every file and folder is older than RACY_MS (a write within the same clock tick as the
// record would keep all four), so any later write shows; any difference, or no record, hashes the
// content again (and records). Measured (first call in a fresh Node 24 process, this machine, nine
// each): hashing the content 30 ms of CPU with its folder walk; checking the record ~5-8 ms (history.md,
// "Item 27, 2026-11-26, session 10").
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheDirProblem, userCompileCacheDir } from './compile-cache.js';

/**
 * A built-in module without an ES import: importing one builds its facade by reading every export,
 * which for node:child_process costs ~8 ms of CPU at every start, for node:fs 5-8 ms (its lazy
 * `promises` loads fs/promises) and crypto's lazy getters load web crypto; the launcher needs crypto's
 * createHash only to hash the content, and child_process only on a miss.
 */
const builtin = (name) => process.getBuiltinModule(name);
// node:fs's facade alone costs 5-8 ms (it loads fs/promises and its streams); bin/ncs.mjs loads this
// module only on a Node that has getBuiltinModule (22.3+; type stripping came later).
const { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync } =
  builtin('node:fs');
const { utimesSync, writeFileSync } = builtin('node:fs');
const { homedir } = builtin('node:os');

/** Folders whose files make the bundle; tests (`*.test.ts`), e2e suites and benchmarks are not in it. */
const SOURCES = ['bin', 'simulator', 'conformance'];
const SKIPPED_NAMES = ['e2e', 'bench'];
/** Files beside them the package carries or is built with (node_modules/.package-lock.json: the installed versions). */
const ALSO = ['package.json', 'fixtures/hospitality.json', 'node_modules/.package-lock.json'];
/** How often a running `ncs` of a cached bundle marks its package as in use. */
const IN_USE_TOUCH_MS = 30 * 60_000;
/** A build taking longer than this was killed: its lock no longer holds. */
const STALE_BUILD_MS = 10 * 60_000;

/** Files written within this margin of a record could change again unseen in the same clock tick. */
const RACY_MS = 2000;

/** The files (sorted, as hashed) and folders the package is built from; `stat` sees each folder before it is read. */
function sourceFiles(root, stat) {
  const files = ALSO.slice();
  const dirs = [];
  const walk = (dir, rel) => {
    if (stat) dirs.push([rel, stat(dir)]);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (SKIPPED_NAMES.includes(entry.name)) continue;
      if (entry.isDirectory()) walk(join(dir, entry.name), `${rel}${entry.name}/`);
      else if (entry.isFile() && !entry.name.endsWith('.test.ts')) files.push(rel + entry.name);
    }
  };
  for (const dir of SOURCES) walk(join(root, dir), `${dir}/`);
  return { files: files.sort(), dirs };
}

/** What a record keeps of a file or folder: size, modification and change times (ns), inode. */
const statKey = (st) => `${st.size}:${st.mtimeNs}:${st.ctimeNs}:${st.ino}`;
const bigStat = (path) => statKey(statSync(path, { bigint: true }));

/** SHA-256 of the files' content; `stat` (optional) is given each file's stat, taken before it is read. */
function contentHash(root, files, stat) {
  const hash = builtin('node:crypto').createHash('sha256').update(`${root}\0`);
  // One reused buffer: no allocation per file.
  const buffer = Buffer.allocUnsafe(1 << 16);
  for (const file of files) {
    hash.update(`${file}\0`);
    let fd;
    try {
      fd = openSync(join(root, file), 'r');
    } catch (err) {
      // node_modules/.package-lock.json is npm's; another package manager may not write it
      if (err.code !== 'ENOENT' || !ALSO.includes(file)) throw err;
      hash.update('\0missing\0');
      stat?.(file, undefined);
      continue;
    }
    try {
      stat?.(file, fstatSync(fd, { bigint: true }));
      for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
    } finally {
      closeSync(fd);
    }
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 20);
}

/**
 * The hash of every file the package is built from, and of the clone's folder (the package links to
 * its node_modules): always from their content.
 * @example sourcesHash('/work/clone') // '287f24a00f9993cdc998'
 */
export function sourcesHash(clone) {
  const root = resolve(clone); // one key whether the folder is given with a trailing slash or not
  return contentHash(root, sourceFiles(root).files);
}

/**
 * Where the stat record of a clone's sources is kept in `dir` (one per clone folder).
 * @example sourcesRecordFile('/work/clone', packagesDir()) // '.../bundles/sources-5f3a09c1.json'
 */
export function sourcesRecordFile(clone, dir) {
  const root = resolve(clone);
  let h = 0x811c9dc5; // FNV-1a: a file name only; the record holds the folder and is checked against it
  for (let i = 0; i < root.length; i++) h = Math.imul(h ^ root.charCodeAt(i), 0x01000193) >>> 0;
  return join(dir, `sources-${h.toString(16).padStart(8, '0')}.json`);
}

/**
 * sourcesHash(clone), read from the stat record in `dir` when no file or folder changed since it was
 * made, else computed from the content (and recorded when every file is older than `racyMs`).
 * @example sourcesKey('/work/clone', packagesDir()) // '287f24a00f9993cdc998'
 */
export function sourcesKey(clone, dir, racyMs = RACY_MS) {
  const root = resolve(clone);
  const recordFile = sourcesRecordFile(root, dir);
  const known = recorded(recordFile, root);
  if (known) return known;
  // Stats are taken before what they describe is read, so a write during the hash shows at the next start.
  const before = BigInt(Date.now() - racyMs) * 1_000_000n;
  let racy = false;
  const seen = (st) => {
    if (st.mtimeNs >= before || st.ctimeNs >= before) racy = true;
    return statKey(st);
  };
  const { files, dirs } = sourceFiles(root, (path) => seen(statSync(path, { bigint: true })));
  const stats = [];
  const key = contentHash(root, files, (file, st) => stats.push([file, st ? seen(st) : '']));
  if (!racy) {
    try {
      const tmp = `${recordFile}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify({ root, key, dirs, files: stats }), { mode: 0o600 });
      renameSync(tmp, recordFile);
    } catch {
      // not recorded: the next start hashes again
    }
  }
  return key;
}

/** The key of the record when every folder and file it lists is as it was; else undefined. */
function recorded(recordFile, root) {
  let record;
  try {
    record = JSON.parse(readFileSync(recordFile, 'utf8'));
  } catch {
    return undefined;
  }
  if (record.root !== root || typeof record.key !== 'string') return undefined;
  // Paths by concatenation (the relative ones use '/', which every platform accepts): path.join of ~490
  // paths costs ~4 ms of CPU in a process this young, as much as their stat calls.
  const base = `${root}/`;
  try {
    for (const [rel, st] of record.dirs) if (bigStat(base + rel) !== st) return undefined;
    for (const [rel, st] of record.files) {
      if (st === '') {
        if (statSync(base + rel, { throwIfNoEntry: false })) return undefined; // appeared
      } else if (bigStat(base + rel) !== st) return undefined;
    }
  } catch {
    return undefined; // removed, or unreadable
  }
  return record.key;
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
