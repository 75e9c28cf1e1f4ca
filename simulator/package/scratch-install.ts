// Installing the packed tarball into an empty project, for the install check and the benchmark.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT_DIR = new URL('../../', import.meta.url);

/**
 * The exact version of every package this repository's lockfile installs for users (not dev-only),
 * for names locked at a single version.
 * @example lockedRuntimeVersions() // { msw: '3.0.5', zod: '4.6.7', ... }
 */
export function lockedRuntimeVersions(lock = readFileSync(new URL('package-lock.json', ROOT_DIR), 'utf8')) {
  const packages = (JSON.parse(lock) as { packages: Record<string, { version?: string; dev?: boolean }> }).packages;
  const versions = new Map<string, Set<string>>();
  for (const [path, p] of Object.entries(packages)) {
    if (!path || p.dev || !p.version || !path.includes('node_modules/')) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    versions.set(name, (versions.get(name) ?? new Set()).add(p.version));
  }
  return Object.fromEntries(
    [...versions].filter(([, v]) => v.size === 1).map(([name, v]) => [name, [...v][0] as string]),
  );
}

export interface ScratchInstall {
  output: string;
  /** Set when the registry could not resolve a fresh install and the lockfile's versions were used. */
  pinned?: string;
}

/**
 * `npm install -D <specs>` in `dir` (a project with a package.json), as a partner would. When the
 * registry cannot resolve today's versions (ETARGET: a dependency names a version the registry does
 * not have yet), installs again with this repository's locked versions as `overrides`, and says so:
 * the check is about this package, not about a registry mirror in mid-sync.
 * @example installPacked('/tmp/consumer', ['/tmp/ncs-sandbox-0.1.0.tgz'], process.env)
 */
export function installPacked(dir: string, specs: string[], env: NodeJS.ProcessEnv): ScratchInstall {
  const install = () =>
    spawnSync('npm', ['install', '-D', '--no-audit', '--no-fund', ...specs], {
      cwd: dir,
      env,
      encoding: 'utf8',
      timeout: 300_000,
    });
  const failed = (r: ReturnType<typeof install>) => r.error !== undefined || r.status !== 0;
  const text = (r: ReturnType<typeof install>) => `${r.stdout ?? ''}${r.stderr ?? ''}`;
  const first = install();
  if (!failed(first)) return { output: text(first) };
  const missing = /notarget No matching version found for (\S+)/.exec(text(first))?.[1];
  if (!missing)
    throw new Error(`npm install failed (${first.error?.message ?? `exit ${first.status}`}):\n${text(first)}`);
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, overrides: lockedRuntimeVersions() }, null, 2));
  const second = install();
  if (failed(second))
    throw new Error(`npm install failed, also with the locked versions:\n${text(first)}\n${text(second)}`);
  return {
    output: text(second),
    pinned: `the registry has no ${missing}; installed with package-lock.json's versions`,
  };
}
