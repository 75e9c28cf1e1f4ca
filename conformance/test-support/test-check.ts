// A registered check for the runner's own tests: a passing MUST of the Errors section unless told otherwise.
import { type CheckDef, defineCheck } from '../runner/check.ts';

/**
 * A check named `name` with `over` replacing any of its defaults.
 * @example testCheck('a.fails', { run: async (ctx) => ctx.expect.that(false, { expected: 'x', observed: 'y' }) })
 */
export const testCheck = (name: string, over: Partial<CheckDef> = {}): CheckDef =>
  defineCheck({
    name,
    title: name,
    severity: 'MUST',
    section: 'Errors',
    tags: [],
    mutating: false,
    run: async () => undefined,
    ...over,
  });
