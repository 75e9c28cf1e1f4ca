// Builds the package folder of a clone's sources (see source-package.js): the test suite's globalSetup
// calls it and waits; bin/ncs.mjs, on a start that found no bundle of its sources, runs this file as a
// detached background process so the next start finds one (`node source-package-build.ts <root> <dir>
// <key>`), at low priority and after a short pause, so the start that asked is not slowed.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { packagesDir, sourcesHash } from './source-package.js';

/** The sources changed while they were bundled: not a failure of these sources, nothing is stored. */
class SourcesChanged extends Error {
  constructor() {
    super('the sources changed while the bundle was built');
  }
}

/** A cached package unused this long is removed (a test run takes minutes; each start touches its own). */
const UNUSED_MS = 2 * 3600_000;

/**
 * The package of `root`'s sources at `<dir>/<key>`: built into a fresh folder and renamed into place,
 * so no start ever sees half a package, and of two builds of the same sources at once one wins and the
 * other is discarded. Sources that changed while building (the key no longer matches) are not stored
 * under the old key. Returns the package folder.
 * @example await buildSourcePackage(ROOT, packagesDir()!, sourcesHash(ROOT))
 */
export async function buildSourcePackage(root: string, dir: string, key: string): Promise<string> {
  const pkg = join(dir, key);
  const building = mkdtempSync(join(dir, 'building-'));
  try {
    // Loaded only when a build is needed (esbuild, and the contract for the prebuilt documents).
    const { bundleCli } = await import('./build.ts');
    mkdirSync(join(building, 'fixtures'), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(building, 'node_modules'), 'dir');
    copyFileSync(join(root, 'package.json'), join(building, 'package.json'));
    copyFileSync(join(root, 'fixtures/hospitality.json'), join(building, 'fixtures/hospitality.json'));
    await bundleCli(join(building, 'dist/cli'));
    if (sourcesHash(root) !== key) throw new SourcesChanged();
    renameSync(building, pkg);
  } catch (err) {
    rmSync(building, { recursive: true, force: true });
    // Another build of the same sources finished first: use that one.
    if (!['ENOTEMPTY', 'EEXIST'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
  }
  return pkg;
}

/**
 * The package of `root`'s current sources in the user's cache, built now if missing, so the next
 * `bin/ncs.mjs` start runs it (the benchmark's cold start measures that start, not a miss); undefined
 * when the user has no usable cache folder (every start then runs the sources).
 * @example await ensureSourcePackage(ROOT) // '/home/ana/.cache/ncs-sandbox/bundles/287f24a00f9993cdc998'
 */
export async function ensureSourcePackage(root: string): Promise<string | undefined> {
  const dir = packagesDir();
  if (!dir) return undefined;
  const key = sourcesHash(root);
  if (existsSync(join(dir, key, 'dist/cli/ncs-main.cjs'))) return join(dir, key);
  return buildSourcePackage(root, dir, key);
}

/**
 * Packages no start or test run has used for two hours, builds abandoned by a killed process, and
 * their locks and failure marks. @example removeUnused(packagesDir()!)
 */
export function removeUnused(dir: string): void {
  const before = Date.now() - UNUSED_MS;
  for (const name of readdirSync(dir)) {
    try {
      if (statSync(join(dir, name)).mtimeMs < before) rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      // removed meanwhile by another process
    }
  }
}

/** The background build bin/ncs.mjs starts: silent (its output goes where NCS_BUNDLE_LOG says, if set). */
async function backgroundBuild(root: string, dir: string, key: string): Promise<void> {
  const lock = join(dir, `${key}.building`);
  try {
    setPriority(10); // the start that asked, and everything else on the machine, come first
    await sleep(Number(process.env.NCS_BUNDLE_DELAY_MS ?? 1000));
    removeUnused(dir);
    await buildSourcePackage(root, dir, key);
    process.stderr.write(`ncs: bundle of the sources built: ${join(dir, key)}\n`);
  } catch (err) {
    // The same sources are not tried again at every start; an edit makes a new key.
    if (!(err instanceof SourcesChanged)) writeFileSync(join(dir, `${key}.failed`), `${(err as Error).stack ?? err}\n`);
    process.stderr.write(`ncs: bundle of the sources not built: ${(err as Error).stack ?? err}\n`);
    process.exitCode = 1;
  } finally {
    rmSync(lock, { force: true });
  }
}

if (import.meta.main) {
  const [root, dir, key] = process.argv.slice(2);
  if (!root || !dir || !key) throw new Error('usage: source-package-build.ts <root> <packages dir> <key>');
  await backgroundBuild(root, dir, key);
}
