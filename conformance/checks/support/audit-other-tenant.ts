// The audit log of the run's second tenant: "traceable changes of the tenant" holds for every tenant.
import type { CheckContext } from '../../runner/check.ts';
import { must } from '../../runner/invariant.ts';
import { entriesOf, namesId, numberingOf, readAuditLog } from './audit-log.ts';
import { createLabelledConnection } from './connections.ts';
import { readEventually } from './eventually.ts';

/** "Traceable changes of the tenant": the second tenant's change is in its own log too. */
export async function otherTenantTraced(ctx: CheckContext, limit: number) {
  const other = ctx.target.otherTenant;
  if (!other) return;
  const c = await createLabelledConnection(ctx, 'audit-other', { tenant: other });
  const id = c.id;
  if (c.ex.status !== 200 || !id) return; // the second tenant may not create: nothing to trace
  const read = await readEventually(
    ctx,
    () => readAuditLog(ctx, (entries) => namesId(JSON.stringify(entries), id), limit, other),
    (r) => r.pages[0]?.status !== 200 || namesId(JSON.stringify(r.entries), id),
  );
  const first = must(read.pages[0], 'readAuditLog reads at least one page');
  if (first.status !== 200) return; // judged above for the first tenant
  const numbering = numberingOf(entriesOf(first) ?? []);
  const named = namesId(JSON.stringify(read.entries), id);
  // As above: an oldest-first log without a discoverable next page keeps the newest out of reach.
  if (!named && read.pages.length === 1 && numbering?.direction === 'up' && (entriesOf(first)?.length ?? 0) >= limit)
    return;
  ctx.expect.that(named, {
    expected: `the creation of connection ${id} under the second tenant (${other}) is traceable in that tenant's audit log ("traceable changes of the tenant")`,
    observed: `no entry of ${other}'s log names it (read ${read.pages.length} page(s), ${read.entries.length} entries)`,
    exchange: must(read.pages.at(-1), 'readAuditLog reads at least one page'),
  });
}
