// Runs the `ncs` bundle (dist/cli/ncs-main.cjs) with a V8 code cache of what its earlier starts ran.
// Node's compile cache (module.enableCompileCache) stores a module's code as compiled before it runs:
// V8 compiles functions lazily, on their first call, so that cache holds the top-level code only (457 KB
// for the 1.5 MB bundle) and every function a start calls (zod's schema builders, commander, Ajv, the
// router, ~2,000 of them up to the first answer) was compiled again at every start. A cache made once the
// start has run (`vm.Script#createCachedData`, 2 MB) holds them too: a start of `ncs serve` to its first
// answer measured 440 -> 250 ms of CPU against 220 ms for a bare node:http server (history.md, "Item 27,
// 2026-11-26, session 10"). ES modules offer no such cache, so the bundle is CommonJS.
//
// The cache is kept per bundle content, Node version and V8 flags (V8 itself only checks the source's
// length), and per command (`serve`'s start is not `--version`'s), in the user's own cache folder (0700,
// checked as the compile cache's: never one another user created; code loaded from it runs). It is
// written once a start has done its work: for a server, when its first request arrives (the process may
// be killed right after its first answer) and again after that answer; else at exit, unless the command
// could not run (exit code 2: a typo, bad options). Caches unused for a day are removed.
// A command without a cache of its own yet (its first start after a build or an upgrade, or one that only
// ever fails: a typo) starts from the smallest cache another command of the same bundle, Node and flags
// wrote: the bundle's compiled top level is common to all of them, and compiling 1.5 MB again is most of
// an uncached start (~80 of ~150 ms of CPU for `ncs --version`). The smallest, so that the cache this
// start then writes for its own command holds little of the other command's code.
// NODE_DISABLE_COMPILE_CACHE=1 turns it off, and so does coverage (NODE_V8_COVERAGE).
//
// Plain JavaScript kept to old syntax (types in bundle-runner.d.ts): the installed launcher bundles it and
// must parse on old Nodes to say which one it needs; bin/ncs.mjs loads it before any TypeScript.
import { basename, dirname, join } from 'node:path';
import { cacheDirProblem, userCompileCacheDir } from './compile-cache.js';

/**
 * Built-in modules without an ES import, whose facade reads every export (node:fs's loads fs/promises
 * and its streams, 5-8 ms of CPU; crypto's, web crypto). Only inside functions: the installed launcher
 * evaluates this module on any Node, and calls it only on a supported one (which has getBuiltinModule).
 */
const builtin = (name) => process.getBuiltinModule(name);
const fs = () => builtin('node:fs');
/** A cache unused this long is removed when another one is written; a used one is marked at most hourly. */
const UNUSED_MS = 24 * 3600_000;
const TOUCH_MS = 3600_000;

/**
 * The user's own folder of code caches (0700, checked); undefined when caching is off or impossible.
 * @example codeCacheDir() // '/home/ana/.cache/ncs-sandbox/code-cache'
 */
export function codeCacheDir(env = process.env) {
  // Under coverage V8 compiles for counting, and a cache would be refused and written again at every start.
  if (env.NODE_DISABLE_COMPILE_CACHE || env.NODE_V8_COVERAGE) return undefined;
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  let home = '';
  try {
    home = builtin('node:os').homedir();
  } catch {
    // no home folder: the per-uid folder under tmp
  }
  const dir = join(dirname(userCompileCacheDir(env, process.platform, home, uid)), 'code-cache');
  return cacheDirProblem(dir, uid) ? undefined : dir;
}

/**
 * The command a start runs, as far as the cache is concerned: its first word that is not an option.
 * @example commandOf(['serve', '--port', '0']) // 'serve'
 */
export function commandOf(args) {
  const word = args.find((a) => !a.startsWith('-'));
  return word && /^[a-z][a-z-]{0,30}$/.test(word) ? word : 'other';
}

/**
 * The cache file of this bundle's content (text or bytes) for this Node, its flags (`execArgv`, NODE_OPTIONS) and this command.
 * @example cacheFileName(source, ['serve']) // 'serve-3f0c...e1.v8'
 */
export function cacheFileName(source, args, env = process.env, execArgv = process.execArgv) {
  return `${commandOf(args)}-${bundleKey(source, env, execArgv)}.v8`;
}

/** What every command's cache of this bundle, Node and flags has in common: the end of its name. */
function bundleKey(source, env, execArgv) {
  const hash = builtin('node:crypto').createHash('sha256');
  hash.update(`${process.version}\0${process.arch}\0${execArgv.join(' ')}\0${env.NODE_OPTIONS || ''}\0`);
  hash.update(source);
  return hash.digest('hex').slice(0, 32);
}

/** The smallest cache another command wrote for the same bundle, Node and flags (`-<key>.v8`), or undefined. */
function siblingCache(dir, own) {
  const ending = own.slice(own.lastIndexOf('-'));
  let smallest;
  try {
    for (const name of fs().readdirSync(dir)) {
      if (name === own || !name.endsWith(ending)) continue;
      const size = fs().statSync(join(dir, name)).size;
      if (!smallest || size < smallest.size) smallest = { name, size };
    }
  } catch {
    return undefined; // the folder went away meanwhile: compile
  }
  return smallest && readCache(join(dir, smallest.name));
}

/** The cache's bytes (marking it used), or undefined. */
function readCache(file) {
  let fd;
  try {
    fd = fs().openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = fs().fstatSync(fd);
    const data = Buffer.allocUnsafe(st.size);
    let n = 0;
    while (n < st.size) {
      const got = fs().readSync(fd, data, n, st.size - n, n);
      if (got === 0) break;
      n += got;
    }
    if (Date.now() - st.mtimeMs > TOUCH_MS) fs().futimesSync(fd, new Date(), new Date());
    return n === st.size ? data : undefined;
  } catch {
    return undefined;
  } finally {
    fs().closeSync(fd);
  }
}

/** Writes the cache (a temporary file renamed into place) and removes caches unused for a day; never throws. */
function writeCache(dir, file, script) {
  try {
    const tmp = `${file}.${process.pid}.tmp`;
    fs().writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs().renameSync(tmp, file);
    const before = Date.now() - UNUSED_MS;
    for (const name of fs().readdirSync(dir)) {
      const path = join(dir, name);
      if (path !== file && fs().statSync(path).mtimeMs < before) fs().rmSync(path, { force: true });
    }
  } catch {
    // a full disk or a folder removed meanwhile: the next start compiles again
  }
}

/**
 * Runs the CommonJS bundle `file` in this process with the code cache of its earlier starts, and writes
 * one when there was none (or V8 refused it). Returns what the bundle's module exported.
 * @example runBundle('/usr/lib/node_modules/ncs-sandbox/dist/cli/ncs-main.cjs')
 */
export function runBundle(file, env = process.env) {
  const vm = builtin('node:vm');
  const bytes = fs().readFileSync(file);
  const source = bytes.toString('utf8');
  const dir = codeCacheDir(env);
  // Hashing the bytes rather than the text saves encoding 1.5 MB again (~1-2 ms).
  const cacheFile = dir && join(dir, cacheFileName(bytes, process.argv.slice(2), env));
  const own = cacheFile && readCache(cacheFile);
  const cachedData = own || (cacheFile && siblingCache(dir, basename(cacheFile)));
  // The same wrapper as Node's CommonJS loader, on the first line, so line numbers stay the file's.
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${source}\n})`, {
    filename: file,
    cachedData,
  });
  const cache = !cacheFile
    ? 'off'
    : !cachedData
      ? 'none'
      : script.cachedDataRejected
        ? 'rejected'
        : own
          ? 'accepted'
          : 'borrowed';
  // Which bundle runs and how its cache fared, for the tests of the launchers (no module loader sees it).
  globalThis[Symbol.for('ncs-sandbox.bundle')] = { file, cache };
  if (cache !== 'off' && cache !== 'accepted') whenStarted(() => writeCache(dir, cacheFile, script));
  const mod = { exports: {}, filename: file, id: file, loaded: false };
  const require = builtin('node:module').createRequire(file);
  script.runInThisContext().call(mod.exports, mod.exports, require, mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports;
}

/**
 * Calls `save` once the start has done its work: when a server's first request arrives (it may be killed
 * right after answering), again once that answer is sent (the request's code compiled too), and at exit
 * if neither came, unless the command could not run (exit code 2).
 */
function whenStarted(save) {
  const channel = builtin('node:diagnostics_channel');
  let saved = 0;
  const onRequest = () => {
    channel.unsubscribe('http.server.request.start', onRequest);
    saved++;
    save();
  };
  const onAnswer = () => {
    channel.unsubscribe('http.server.response.finish', onAnswer);
    saved++;
    setImmediate(save);
  };
  channel.subscribe('http.server.request.start', onRequest);
  channel.subscribe('http.server.response.finish', onAnswer);
  // Exit codes of `ncs` (bin/cli/program.ts): 0 done, 1 a negative verdict (a kit run with failures is
  // still a run worth caching), 2 the command could not do its work (a typo, bad options): no cache.
  process.once('exit', (code) => {
    if (saved === 0 && (code === 0 || code === 1)) save();
  });
}
