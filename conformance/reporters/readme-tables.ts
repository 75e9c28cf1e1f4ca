import { VIOLATIONS } from '../violations/index.ts';
import { checksMarkdownTable } from './check-list.ts';

/** The self-test's violations as a Markdown table. */
export function violationsMarkdownTable(): string {
  const rows = VIOLATIONS.map(
    (v) =>
      `| \`${v.name}\` | ${v.description}${v.where === 'alt' ? ' (alternate base URL only)' : ''} | ${v.catches.map((c) => `\`${c}\``).join(', ')} |`,
  );
  return ['| violation | what breaks | checks that must fail (and no others) |', '|---|---|---|', ...rows].join('\n');
}

const BLOCKS: Record<string, () => string> = { checks: checksMarkdownTable, violations: violationsMarkdownTable };

/**
 * The kit's README text (`conformance/README.md`) with every generated block (between `<!-- name:start -->` and `<!-- name:end -->`)
 * rewritten from the registry; a test fails when the README on disk differs.
 */
export function updateReadme(readme: string): string {
  let out = readme;
  for (const [name, make] of Object.entries(BLOCKS)) {
    const start = `<!-- ${name}:start -->`;
    const end = `<!-- ${name}:end -->`;
    const a = out.indexOf(start);
    const b = out.indexOf(end);
    if (a === -1 || b < a) throw new Error(`conformance/README.md has no ${start} … ${end} block`);
    out = `${out.slice(0, a + start.length)}\n${make()}\n${out.slice(b)}`;
  }
  return out;
}
