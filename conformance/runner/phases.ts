import type { CheckDef } from './check.ts';
import type { CheckResult } from './events.ts';
import { pool } from './pool.ts';

/**
 * Runs the checks in their phases and reports them in the registry's order: first the checks that make
 * calls; then, one at a time, the checks that arm what the next matching call takes (`alone`); then the checks that compare reads of tenant data (`readsStill`), with no write of the run in
 * flight; then the judging checks (the response rules judge every exchange, so they run once all the others
 * have made theirs); then the run's cleanups; last, alone, a check that may spend the deployment's rate
 * limit (`exhausts`), so no other call of the run waits out the window it leaves spent.
 * @example const results = await runInPhases(checks, 4, runOne, exhausts, () => cleanUp(), onStopped);
 */
export async function runInPhases(
  checks: readonly CheckDef[],
  concurrency: number,
  runOne: (check: CheckDef) => Promise<CheckResult>,
  exhausts: (check: CheckDef) => boolean,
  cleanUp: () => Promise<void>,
  beforeCleanUp: () => void = () => {},
): Promise<CheckResult[]> {
  const phase = (which: (c: CheckDef) => boolean, n = concurrency) => pool(checks.filter(which), n, runOne);
  const results = [
    ...(await phase((c) => !c.judgesRun && !c.readsStill && !c.alone && !exhausts(c))),
    // One at a time: each arms what the next matching call takes.
    ...(await phase((c) => c.alone === true && !c.judgesRun && !c.readsStill && !exhausts(c), 1)),
    ...(await phase((c) => c.readsStill === true && !c.judgesRun && !exhausts(c))),
    ...(await phase((c) => c.judgesRun === true && !exhausts(c))),
  ];
  beforeCleanUp();
  await cleanUp();
  // After a stop (--max-failures) these are reported as not run, like every check after it.
  results.push(...(await phase(exhausts)));
  await cleanUp();
  const at = new Map(checks.map((c, i) => [c.name, i]));
  return results.sort((a, b) => (at.get(a.check.name) ?? 0) - (at.get(b.check.name) ?? 0));
}
