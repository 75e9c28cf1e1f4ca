import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneDeclarations } from './prune-declarations.ts';

function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-prune-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe('pruneDeclarations', () => {
  it('keeps what the entries reach (from, import(), re-exports across folders) and removes the rest', () => {
    const dir = tree({
      'index.d.ts': "export * from './a.js';\nexport type T = import('./deep/b.js').B;",
      'a.d.ts': "import type { C } from './x/c.js';\nexport declare const a: C;",
      'x/c.d.ts': 'export type C = string;',
      'deep/b.d.ts': 'export interface B { n: number }',
      'internal.d.ts': "import type { C } from './x/c.js';\nexport declare const hidden: C;",
    });
    expect(pruneDeclarations(dir, [join(dir, 'index.d.ts')])).toBe(1);
    for (const kept of ['index.d.ts', 'a.d.ts', 'x/c.d.ts', 'deep/b.d.ts'])
      expect(existsSync(join(dir, kept))).toBe(true);
    expect(existsSync(join(dir, 'internal.d.ts'))).toBe(false);
  });

  it('refuses a declaration that imports one tsc did not write (its type would be any)', () => {
    const dir = tree({ 'index.d.ts': "export * from './gone.js';" });
    expect(() => pruneDeclarations(dir, [join(dir, 'index.d.ts')])).toThrow(/gone\.d\.ts, which tsc did not write/);
  });
});
