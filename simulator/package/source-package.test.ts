import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sourcesHash } from './source-package.js';

describe('sourcesHash (which cached ncs bundle a start or a test run may use)', () => {
  const root = mkdtempSync(join(tmpdir(), 'ncs-sources-hash-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  for (const dir of ['bin', 'simulator', 'conformance']) mkdirSync(join(root, dir), { recursive: true });
  write('package.json', '{"version":"1.0.0"}');
  write('fixtures/hospitality.json', '{}');
  write('node_modules/.package-lock.json', '{"packages":{}}');
  write('simulator/app/serve.ts', 'export const a = 1;');

  it('changes with a source, the fixtures, package.json or the installed dependencies', () => {
    const before = sourcesHash(root);
    expect(sourcesHash(root)).toBe(before);
    for (const [file, text] of [
      ['simulator/app/serve.ts', 'export const a = 2;'],
      ['conformance/checks/new-check.ts', 'export {};'],
      ['fixtures/hospitality.json', '{"providers":[]}'],
      ['package.json', '{"version":"1.0.1"}'],
      ['node_modules/.package-lock.json', '{"packages":{"x":{}}}'],
    ] as const) {
      const previous = sourcesHash(root);
      write(file, text);
      expect(sourcesHash(root), file).not.toBe(previous);
    }
  });

  it('works without npm’s node_modules/.package-lock.json (another package manager), and notices it appear', () => {
    const other = mkdtempSync(join(tmpdir(), 'ncs-sources-hash-'));
    try {
      for (const dir of ['bin', 'simulator', 'conformance', 'fixtures'])
        mkdirSync(join(other, dir), { recursive: true });
      writeFileSync(join(other, 'package.json'), '{}');
      writeFileSync(join(other, 'fixtures/hospitality.json'), '{}');
      const without = sourcesHash(other);
      mkdirSync(join(other, 'node_modules'));
      writeFileSync(join(other, 'node_modules/.package-lock.json'), '{}');
      expect(sourcesHash(other)).not.toBe(without);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('ignores tests, end-to-end suites and benchmarks, which are not in the bundle', () => {
    const before = sourcesHash(root);
    write('simulator/app/serve.test.ts', 'it();');
    write('simulator/e2e/x.e2e.test.ts', 'it();');
    write('simulator/e2e/helper.ts', 'export {};');
    write('simulator/bench/run.ts', 'export {};');
    expect(sourcesHash(root)).toBe(before);
  });
});
