// vitest globalSetup (vitest.config.ts): the `ncs` command as users install it, built from the worktree's
// sources for the tests whose subject is the CLI's behaviour (NCS_BIN in simulator/e2e/ready-file.ts). A
// bundle starts `ncs serve` on ~0.4 s of CPU instead of 0.6-0.8 s from the sources (hundreds of modules
// resolved and type-stripped), and the suite starts some hundred `ncs` processes. Only the esbuild step
// of `npm run build` runs (bundleCli, the same function and options), no tsc: ~0.45 s of CPU and 1.5 s
// before the first test. The result is a package folder (package.json, fixtures/, dist/cli/, and a
// node_modules link to the project's dependencies, so the bundle's runtime imports — undici, yaml,
// fast-check, redis, the schema validator's files — resolve from beside it as in a consumer's project),
// kept in the user's own cache folder under the hash of everything it is built from: the next run of
// unchanged sources (one file or the whole suite) reuses it, any change to a source, the fixtures,
// package.json or the installed dependencies builds a new one.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { cacheDirProblem, userCompileCacheDir } from '../package/compile-cache.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** dist/cli/ncs.js of the package built for this run (see simulator/test-support/cli-bundle-setup.ts). */
    ncsBundle: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Folders whose files make the bundle (tests, end-to-end suites and benchmarks are not part of it). */
const SOURCES = ['bin', 'simulator', 'conformance'];
const SKIPPED = /(\.test\.ts$|(^|\/)(e2e|bench)(\/|$))/;
/** Files beside them the package carries or is built with (node_modules/.package-lock.json: the installed versions). */
const ALSO = ['package.json', 'fixtures/hospitality.json', 'node_modules/.package-lock.json'];
/** A cached package unused this long is removed (a run takes minutes; watch mode touches its own). */
const UNUSED_MS = 2 * 3600_000;

/**
 * The hash of every file the package is built from (~430 files, a few ms), and of the clone's folder (the
 * package links to its node_modules).
 * @example sourcesHash('/work/clone') // '287f24a00f9993cdc998'
 */
export function sourcesHash(root = ROOT): string {
  const hash = createHash('sha256').update(`${root}\0`);
  const files: string[] = [...ALSO];
  for (const dir of SOURCES)
    for (const entry of readdirSync(join(root, dir), { recursive: true, withFileTypes: true })) {
      const path = relative(root, join(entry.parentPath, entry.name));
      if (entry.isFile() && !SKIPPED.test(path)) files.push(path);
    }
  for (const file of files.sort())
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update('\0');
  return hash.digest('hex').slice(0, 20);
}

/** The user's own folder of built packages (0700, checked as the compile cache's is); undefined: none usable. */
function cacheRoot(): string | undefined {
  const uid = process.getuid?.();
  let home = '';
  try {
    home = homedir();
  } catch {
    // no home folder: the per-uid folder under tmp
  }
  const dir = join(dirname(userCompileCacheDir(process.env, process.platform, home, uid)), 'test-bundles');
  return cacheDirProblem(dir, uid) ? undefined : dir;
}

/** A package folder: package.json, fixtures/, node_modules (a link) and the CLI bundled into dist/cli. */
async function buildPackageAt(pkg: string): Promise<void> {
  // Loaded only when a build is needed (esbuild, and the contract for the prebuilt documents).
  const { bundleCli } = await import('../package/build.ts');
  mkdirSync(join(pkg, 'fixtures'), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  copyFileSync(join(ROOT, 'fixtures/hospitality.json'), join(pkg, 'fixtures/hospitality.json'));
  await bundleCli(join(pkg, 'dist/cli'));
}

/**
 * The package of the current sources: the cached one, or built now (into a fresh folder, then renamed into
 * place, so a run never sees half a package, and two runs building the same sources at once both end well).
 * Without a usable cache folder, a temporary one (`temporary`: removed at the end of the run).
 * @example const { bin } = await testPackage(); // <pkg>/dist/cli/ncs.js
 */
export async function testPackage(): Promise<{ pkg: string; bin: string; temporary: boolean }> {
  const root = cacheRoot();
  if (!root) {
    const pkg = mkdtempSync(join(tmpdir(), 'ncs-test-bundle-'));
    await buildPackageAt(pkg);
    return { pkg, bin: join(pkg, 'dist/cli/ncs.js'), temporary: true };
  }
  removeUnused(root);
  const pkg = join(root, sourcesHash());
  const bin = join(pkg, 'dist/cli/ncs.js');
  try {
    statSync(bin);
    const now = new Date();
    utimesSync(pkg, now, now); // in use: not removed as unused
    return { pkg, bin, temporary: false };
  } catch {
    // not built yet
  }
  const building = mkdtempSync(join(root, 'building-'));
  try {
    await buildPackageAt(building);
    renameSync(building, pkg);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    // Another run built the same sources meanwhile: use that one.
    if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  return { pkg, bin, temporary: false };
}

/** Packages no run has used for two hours, and builds abandoned by a killed run. */
function removeUnused(root: string): void {
  const before = Date.now() - UNUSED_MS;
  for (const name of readdirSync(root)) {
    const dir = join(root, name);
    if (statSync(dir).mtimeMs < before) rmSync(dir, { recursive: true, force: true });
  }
}

/** Hands the package's `ncs` to the tests (`inject('ncsBundle')`), and a fresh one to each watch-mode rerun. */
export default async function setup(project: TestProject): Promise<() => void> {
  const temporary: string[] = [];
  const provide = async () => {
    const built = await testPackage();
    if (built.temporary) temporary.push(built.pkg);
    project.provide('ncsBundle', built.bin);
  };
  await provide();
  // `vitest` (watch mode) runs the setup once: a rerun after an edit gets the package of the edited sources.
  project.onTestsRerun(provide);
  return () => {
    for (const pkg of temporary) rmSync(pkg, { recursive: true, force: true });
  };
}
