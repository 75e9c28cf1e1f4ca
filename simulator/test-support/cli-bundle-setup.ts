// vitest globalSetup (vitest.config.ts): the `ncs` command as users install it, built once per `vitest
// run` from the worktree's sources, for the tests whose subject is the CLI's behaviour (NCS_BIN in
// simulator/e2e/ready-file.ts). A bundle starts `ncs serve` on ~470 ms of CPU instead of ~790 ms from
// the sources (hundreds of modules resolved and type-stripped), and the suite starts some hundred `ncs`
// processes. Only the esbuild step of `npm run build` runs (bundleCli, the same function and options),
// no tsc. A temporary folder laid out as the installed package (package.json, fixtures/, dist/cli/) with
// a node_modules link to the project's dependencies, so the bundle's runtime imports (undici, yaml,
// fast-check, redis, the schema validator's files) resolve from beside it as in a consumer's project;
// removed when the run ends.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { bundleCli, ROOT } from '../package/build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** dist/cli/ncs.js of the package built for this run (see simulator/test-support/cli-bundle-setup.ts). */
    ncsBundle: string;
  }
}

const TMP = tmpdir();
const PREFIX = 'ncs-test-bundle-';

/**
 * Lays out a package in a fresh temporary folder and bundles the CLI into its dist/cli.
 * @example const { pkg, bin } = await buildTestPackage(); // bin: <pkg>/dist/cli/ncs.js
 */
export async function buildTestPackage(): Promise<{ pkg: string; bin: string }> {
  removeStale();
  const pkg = mkdtempSync(join(TMP, PREFIX));
  mkdirSync(join(pkg, 'fixtures'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  copyFileSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  copyFileSync(join(ROOT, 'fixtures/hospitality.json'), join(pkg, 'fixtures/hospitality.json'));
  await bundleCli(join(pkg, 'dist/cli'));
  return { pkg, bin: join(pkg, 'dist/cli/ncs.js') };
}

/** Folders of runs that were killed before their teardown (a day old: never one of a run still going). */
function removeStale(): void {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of readdirSync(TMP)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = join(TMP, name);
    if (statSync(dir).mtimeMs < dayAgo) rmSync(dir, { recursive: true, force: true });
  }
}

/** Builds the package, hands its `ncs` to the tests (`inject('ncsBundle')`), rebuilds on watch reruns. */
export default async function setup(project: TestProject): Promise<() => void> {
  const built: string[] = [];
  const build = async () => {
    const { pkg, bin } = await buildTestPackage();
    built.push(pkg);
    project.provide('ncsBundle', bin);
  };
  await build();
  // `vitest` (watch mode) runs the setup once: a rerun after an edit gets a bundle of the edited sources.
  project.onTestsRerun(build);
  return () => {
    for (const pkg of built) rmSync(pkg, { recursive: true, force: true });
  };
}
