// The manifest promises what the tarball holds: every package the shipped code imports is a
// dependency (not a devDependency a consumer never gets), and every export has a source file.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './build.ts';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8'));

/** The files tsconfig.build.json compiles (its include, minus its exclude: tests, e2e, test support, bench and the build tooling). */
function shippedSources(): string[] {
  const out: string[] = [];
  const skipped = (rel: string) =>
    /\.test\.ts$|(^|\/)e2e\/|(^|\/)test-support\/|^simulator\/bench\/|^simulator\/package\/|^conformance\/reporters\/update-readme\.ts$/.test(
      rel,
    );
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      const rel = relative(ROOT, full);
      if (statSync(full).isDirectory()) walk(full);
      else if (rel.endsWith('.ts') && !skipped(rel)) out.push(full);
    }
  };
  for (const dir of build.include as string[]) walk(join(ROOT, dir));
  return out;
}

/** Package names of bare specifiers in static imports, dynamic imports and require() calls. */
function importedPackages(source: string): string[] {
  const specifiers = [
    ...source.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+'([^']+)'/gm),
    ...source.matchAll(/\b(?:import|require)\(\s*'([^']+)'\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers
    .filter((s) => !s.startsWith('.') && !s.startsWith('node:') && !builtinModules.includes(s))
    .map((s) => (s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]!));
}

describe('package manifest', () => {
  it('lists every package the shipped code imports under dependencies', () => {
    const missing = new Set<string>();
    for (const file of shippedSources()) {
      // Type-only imports vanish from the JavaScript.
      const code = readFileSync(file, 'utf8').replace(/^\s*import type\s[^;]*;/gm, '');
      // An optional dependency (redis, loaded only for --store) is installed by default too.
      for (const pkg of importedPackages(code))
        if (!manifest.dependencies[pkg] && !manifest.optionalDependencies?.[pkg])
          missing.add(`${pkg} (${relative(ROOT, file)})`);
    }
    expect([...missing]).toEqual([]);
  });

  it('has a source file behind every export and the bin', () => {
    const targets = Object.values(manifest.exports as Record<string, { default?: string } | string>)
      .map((t) => (typeof t === 'string' ? t : t.default!))
      .filter((t) => t.startsWith('./dist/'));
    expect(targets.length).toBeGreaterThanOrEqual(3);
    for (const t of targets)
      expect(existsSync(join(ROOT, t.replace('./dist/', '').replace(/\.js$/, '.ts'))), t).toBe(true);
    expect(manifest.bin.ncs).toBe('dist/cli/ncs.js');
  });

  it('ships the built-in fixtures the CLI reads at run time, and no tests', () => {
    expect(manifest.files).toContain('fixtures/hospitality.json');
    expect(build.exclude).toContain('**/*.test.ts');
  });
});
