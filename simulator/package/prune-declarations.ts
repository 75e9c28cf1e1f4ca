// Declarations no user can reach. tsc writes a .d.ts beside every module, but only the package's entry
// points (its `exports`) and what their declarations import are ever read by a type checker: the rest
// (each check's own constant, an adapter's internals) only weigh down the tarball (~90 KB of it).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/** `from './x.js'`, `import('./x.js')`, `import './x.js'` in a declaration file: relative ones only. */
const RELATIVE_IMPORT = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

/** The declaration file a relative import names (`./x.js`, `./x.ts`, `./x`). */
function declarationOf(from: string, spec: string): string {
  const path = normalize(join(dirname(from), spec));
  if (path.endsWith('.d.ts')) return path;
  if (path.endsWith('.js') || path.endsWith('.ts')) return `${path.slice(0, -3)}.d.ts`;
  return `${path}.d.ts`;
}

function declarationsUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? declarationsUnder(join(dir, e.name)) : e.name.endsWith('.d.ts') ? [join(dir, e.name)] : [],
  );
}

/**
 * Removes every .d.ts under `dist` that no entry's declarations reach; returns how many. An import that
 * names a missing declaration throws (a type a user would see as `any`).
 * @example pruneDeclarations('dist', ['dist/simulator/index.d.ts']) // 228
 */
export function pruneDeclarations(dist: string, entries: readonly string[]): number {
  const reached = new Set<string>();
  const stack = entries.map((e) => normalize(e));
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (reached.has(file)) continue;
    if (!existsSync(file)) throw new Error(`a declaration imports ${file}, which tsc did not write`);
    reached.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(RELATIVE_IMPORT))
      if (m[1]) stack.push(declarationOf(file, m[1]));
  }
  let removed = 0;
  for (const file of declarationsUnder(dist))
    if (!reached.has(file)) {
      rmSync(file);
      removed++;
    }
  return removed;
}
