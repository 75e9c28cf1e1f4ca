// Which bundle matches a clone's sources (see source-package.js): the key of the package folder, a
// SHA-256 of the content of every file the bundle is built from.
//
// Freshness, as git decides a file is unchanged: the key is hashed from the content (~435 files, 1.8
// MB), and a start reads it from a record of the files' stat (size, modification and
// change times in ns, inode; every folder's too, so an added or removed file is seen) when none of them
// changed since the record was made. The change time (ctime) is what makes that sound: `touch -r`,
// `cp -p`, `tar`, `rsync -a` and editors that keep times can set a file's modification time back, never
// its change time, which the kernel sets to now on every write, rename or `utimes`. A record is written
// only when every file and folder is older than RACY_MS (a write within the same clock tick as the
// record would keep all four), so any later write shows; any difference, or no record, hashes the
// content again (and records). Measured (first call in a fresh Node 24 process, this machine, nine
// each, under load): hashing the content 33-60 ms of CPU with its folder walk; checking the record 9-12
// ms (history.md, "Item 27, 2026-11-26, session 10").
//
// Plain JavaScript kept to old syntax (types in source-key.d.ts), loaded by bin/ncs.mjs before any
// TypeScript.
import { join, resolve } from 'node:path';

/**
 * Built-in modules without an ES import, whose facade reads every export: node:fs's loads fs/promises
 * and its streams (5-8 ms of CPU), crypto's web crypto. bin/ncs.mjs loads this module only on a Node
 * that has getBuiltinModule (22.3+; type stripping came later).
 */
const builtin = (name) => process.getBuiltinModule(name);
const { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, renameSync, statSync, writeFileSync } =
  builtin('node:fs');

/** Folders whose files make the bundle; tests (`*.test.ts`), e2e suites and benchmarks are not in it. */
const SOURCES = ['bin', 'simulator', 'conformance'];
const SKIPPED_NAMES = ['e2e', 'bench'];
/** Files beside them the package carries or is built with (node_modules/.package-lock.json: the installed versions). */
const ALSO = ['package.json', 'fixtures/hospitality.json', 'node_modules/.package-lock.json'];
/** Files written within this margin of a record could change again unseen in the same clock tick. */
export const RACY_MS = 2000;

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
