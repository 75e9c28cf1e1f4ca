// vitest globalSetup (vitest.config.ts): the `ncs` command as users install it, built from the worktree's
// sources for the tests whose subject is the CLI's behaviour (NCS_BIN in simulator/e2e/ready-file.ts). A
// bundle starts `ncs serve` on ~0.4 s of CPU instead of 0.6-0.8 s from the sources (hundreds of modules
// resolved and type-stripped), and the suite starts some hundred `ncs` processes. Only the esbuild step
// of `npm run build` runs (bundleCli, the same function and options), no tsc: ~0.45 s of CPU and 1.5 s
// before the first test. The package folder is the one bin/ncs.mjs starts a clone's `ncs` from
// (simulator/package/source-package.js: the user's own cache folder, keyed by the hash of everything the
// bundle is built from), so a run of unchanged sources, and a `npm run serve` of them, reuse it; any
// change to a source, the fixtures, package.json or the installed dependencies builds a new one.
import { mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { packagesDir, sourcesHash } from '../package/source-package.js';
import { buildSourcePackage, removeUnused } from '../package/source-package-build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** dist/cli/ncs.js of the package built for this run (see simulator/test-support/cli-bundle-setup.ts). */
    ncsBundle: string;
  }
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The package of the current sources: the cached one, or built now (into a fresh folder, then renamed into
 * place, so a run never sees half a package, and two runs building the same sources at once both end well).
 * Without a usable cache folder, a temporary one (`temporary`: removed at the end of the run).
 * @example const { bin } = await testPackage(); // <pkg>/dist/cli/ncs.js
 */
export async function testPackage(): Promise<{ pkg: string; bin: string; temporary: boolean }> {
  const dir = packagesDir();
  if (!dir) {
    const temp = mkdtempSync(join(tmpdir(), 'ncs-test-bundle-'));
    const pkg = await buildSourcePackage(ROOT, temp, 'package');
    return { pkg, bin: join(pkg, 'dist/cli/ncs.js'), temporary: true };
  }
  removeUnused(dir);
  const key = sourcesHash(ROOT);
  const pkg = join(dir, key);
  const bin = join(pkg, 'dist/cli/ncs.js');
  try {
    statSync(bin);
    const now = new Date();
    utimesSync(pkg, now, now); // in use: not removed as unused
    return { pkg, bin, temporary: false };
  } catch {
    // not built yet
  }
  await buildSourcePackage(ROOT, dir, key);
  return { pkg, bin, temporary: false };
}

/** Hands the package's `ncs` to the tests (`inject('ncsBundle')`), and a fresh one to each watch-mode rerun. */
export default async function setup(project: TestProject): Promise<() => void> {
  const temporary: string[] = [];
  const provide = async () => {
    const built = await testPackage();
    if (built.temporary) temporary.push(dirname(built.pkg));
    project.provide('ncsBundle', built.bin);
  };
  await provide();
  // `vitest` (watch mode) runs the setup once: a rerun after an edit gets the package of the edited sources.
  project.onTestsRerun(provide);
  return () => {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  };
}
