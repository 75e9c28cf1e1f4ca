import { CHECKS } from '../checks/index.ts';
import { type CheckDef, infoOf } from '../runner/check.ts';

/**
 * The checks as a Markdown table (name, severity, section, what it checks): conformance/README.md's list is
 * this output, and a test fails when they disagree.
 */
export function checksMarkdownTable(checks: readonly CheckDef[] = CHECKS): string {
  const rows = checks.map(
    (c) =>
      `| \`${c.name}\` | ${c.severity} | ${c.section} | ${c.title.replace(/\|/g, '\\|')}${c.mutating ? ' (modifies data)' : ''} |`,
  );
  return ['| check | severity | interface section | rule |', '|---|---|---|---|', ...rows].join('\n');
}

/**
 * `ncs conformance list`: every check with severity and section.
 * @example process.stdout.write(listChecks('markdown'));
 */
export function listChecks(format = 'table', checks: readonly CheckDef[] = CHECKS): string {
  if (format === 'json') return `${JSON.stringify(checks.map(infoOf), null, 2)}\n`;
  if (format === 'markdown') return `${checksMarkdownTable(checks)}\n`;
  if (format !== 'table') throw new Error(`--format must be table, markdown or json, not ${format}`);
  const width = Math.max(...checks.map((c) => c.name.length));
  return `${checks.map((c) => `${c.name.padEnd(width)}  ${c.severity.padEnd(6)}  ${c.mutating ? 'modifies' : 'reads   '}  § ${c.section}`).join('\n')}\n`;
}
