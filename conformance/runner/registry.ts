import type { CheckDef } from './check.ts';

/**
 * The checks of a run, in order, with unique names.
 * @example const registry = createRegistry([...discoveryChecks, ...errorChecks]);
 */
export function createRegistry(checks: readonly CheckDef[]): readonly CheckDef[] {
  const seen = new Set<string>();
  for (const c of checks) {
    if (seen.has(c.name)) throw new Error(`two checks are named ${c.name}`);
    seen.add(c.name);
  }
  return Object.freeze([...checks]);
}

/**
 * The checks whose name, tags or section match `grep` (a regular expression, case-insensitive).
 * @example selectChecks(CHECKS, 'errors\\.|limits') // errors.* and limits.*
 */
export function selectChecks(checks: readonly CheckDef[], grep?: string | RegExp): CheckDef[] {
  if (grep === undefined || grep === '') return [...checks];
  const re = typeof grep === 'string' ? new RegExp(grep, 'i') : grep;
  return checks.filter((c) => re.test(c.name) || c.tags.some((t) => re.test(t)) || re.test(c.section));
}
