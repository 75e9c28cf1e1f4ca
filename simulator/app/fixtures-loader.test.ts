import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FixtureError, loadFixtures } from './fixtures-loader.ts';

describe('loadFixtures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ncs-fixtures-'));
  it('loads the built-in set', () => {
    expect(loadFixtures().providers.length).toBeGreaterThanOrEqual(10);
  });
  it('reports each problem with its path', () => {
    const base = loadFixtures();
    const bad = { ...base, connectors: [{ ...base.connectors[0], providerId: 'ghost', capabilities: ['nope.nope'] }] };
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify(bad));
    try {
      loadFixtures(file);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(FixtureError);
      expect((err as FixtureError).issues).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/connectors\.0\.providerId: unknown provider ghost/),
          expect.stringMatching(/unknown capability nope.nope/),
        ]),
      );
    }
  });
  it('reports unreadable and non-JSON files clearly', () => {
    expect(() => loadFixtures(join(dir, 'missing.json'))).toThrow(/cannot read the file: ENOENT/);
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{ nope');
    expect(() => loadFixtures(file)).toThrow(/not valid JSON/);
  });
});
