import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FixtureSet } from '../contract/fixtures.ts';

/**
 * The built-in fixtures file. It lives at the package root, and this module runs from the source
 * (simulator/app/), the compiled library (dist/simulator/app/) and the CLI bundle (dist/cli/):
 * two or three folders below the root.
 * @example loadFixtures(DEFAULT_FIXTURES_PATH)
 */
export const DEFAULT_FIXTURES_PATH = builtInFixtures();

function builtInFixtures(): string {
  const near = fileURLToPath(new URL('../../fixtures/hospitality.json', import.meta.url));
  return existsSync(near) ? near : fileURLToPath(new URL('../../../fixtures/hospitality.json', import.meta.url));
}

/** A fixture file that cannot be used; `issues` lists each problem with its JSON path. */
export class FixtureError extends Error {
  readonly issues: string[];
  constructor(source: string, issues: string[]) {
    super(`fixtures ${source} are not valid:\n${issues.map((i) => `  - ${i}`).join('\n')}`);
    this.name = 'FixtureError';
    this.issues = issues;
  }
}

/**
 * Validates fixture data (an object or a JSON file path) against the contract.
 * @example const fixtures = loadFixtures('./my-catalog.json');
 */
export function loadFixtures(source: string | unknown = DEFAULT_FIXTURES_PATH): FixtureSet {
  let raw: unknown = source;
  const label = typeof source === 'string' ? source : '(object)';
  if (typeof source === 'string') {
    let text: string;
    try {
      text = readFileSync(source, 'utf8');
    } catch (err) {
      throw new FixtureError(label, [`cannot read the file: ${(err as NodeJS.ErrnoException).code ?? String(err)}`]);
    }
    try {
      raw = JSON.parse(text);
    } catch (err) {
      throw new FixtureError(label, [`not valid JSON: ${(err as Error).message}`]);
    }
  }
  const parsed = FixtureSet.safeParse(raw);
  if (!parsed.success) {
    throw new FixtureError(
      label,
      parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`),
    );
  }
  return parsed.data;
}
