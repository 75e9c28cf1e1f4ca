// A 404 of the run naming a tenant other than the one its call named (conformance/rules/tenant-named.ts): judged on
// every answer from the deployment's addresses, the paths the interface does not list included (an entry read by
// an id under another tenant is where the owner slips out).
import { otherTenantNamed } from '../rules/tenant-named.ts';
import { defineCheck } from '../runner/check.ts';

export const notFoundNamesNoOtherTenant = defineCheck({
  name: 'errors.not-found-names-no-other-tenant',
  title:
    'a 404 names no tenant of the run other than the one the call named ("entry belongs to another tenant" is a cause; which tenant owns it is an internal detail)',
  severity: 'MUST',
  section: 'Errors',
  tags: ['errors', 'tenants'],
  mutating: false,
  judgesRun: true,
  requires: ['token'],
  async run(ctx) {
    const { baseUrl, altBaseUrl, tenant, otherTenant, foreignTenant } = ctx.target;
    const tenants = [tenant, otherTenant, foreignTenant].filter((t): t is string => typeof t === 'string');
    if (tenants.length < 2) ctx.skip('the run knows one tenant only (give --other-tenant or --foreign-tenant)');
    const bases = [baseUrl, ...(altBaseUrl ? [altBaseUrl] : [])].map((b) => b.replace(/\/+$/, ''));
    let judged = 0;
    for (const { ex } of ctx.exchanges()) {
      if (ex.status !== 404 || !bases.some((b) => ex.url.startsWith(b))) continue;
      judged++;
      const problem = otherTenantNamed(ex, tenants);
      if (problem)
        return ctx.fail({
          expected: `${ex.method} ${new URL(ex.url).pathname} answers 404 without naming another tenant (errors carry "no internal details")`,
          observed: problem,
          exchange: ex,
        });
    }
    ctx.note(`judged ${judged} answers 404`);
  },
});
