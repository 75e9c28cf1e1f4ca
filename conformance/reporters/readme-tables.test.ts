import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.ts';
import { updateReadme } from './readme-tables.ts';

describe('conformance/README.md', () => {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');

  it('lists exactly the registered checks and violations (regenerate: npx node conformance/reporters/update-readme.ts)', () => {
    expect(readme).toBe(updateReadme(readme));
    for (const c of CHECKS) expect(readme).toContain(`| \`${c.name}\` | ${c.severity} | ${c.section} |`);
  });

  it('refuses a README without the generated blocks', () => {
    expect(() => updateReadme('# nothing')).toThrow(/no <!-- checks:start -->/);
  });
});
