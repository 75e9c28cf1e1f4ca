// Identifiers and filter values matched alike for every tenant. How an identifier or a filter is matched is
// not shown (case-sensitive or not, exact or by prefix), but the interface's rules are one set for every
// tenant: where the value a list offers answers the same for the second tenant as for the first (the same
// catalog there), the same value in other letter case, or cut short, answers the same too. A tenant's own
// normaliser (a per-tenant search index folding case) breaks that.
import { ROUTE_BY_ID } from '../../simulator/contract/route-table.ts';
import { knownPair } from '../checks/support/samples.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { matchVariants } from './base-url-checks.ts';
import { operations } from './request-fields.ts';

type Answer = { status: number; count: number | undefined };

/** What is compared: the status and, for a list, how many entries it lists. */
function answerOf(ex: Exchange): Answer {
  const data = (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
  const list = data && (Object.values(data).find(Array.isArray) as unknown[] | undefined);
  return { status: ex.status, count: list?.length };
}
const same = (a: Answer, b: Answer) => a.status === b.status && a.count === b.count;
const shown = (a: Answer) => `${a.status}${a.count === undefined ? '' : `, ${a.count} listed`}`;

/** Each variant sent for both tenants, judged where the exact value answers alike for both. */
async function judgeVariants(
  ctx: CheckContext,
  what: (v: string) => string,
  value: string,
  send: (v: string, tenant?: string) => Promise<Exchange>,
  other: string,
) {
  const [mine, theirs] = [answerOf(await send(value)), answerOf(await send(value, other))];
  // Another catalog (or a refusal) for the second tenant: its variants say nothing.
  if (!same(mine, theirs) || mine.status === 429) return;
  for (const v of matchVariants(value)) {
    const a = answerOf(await send(v));
    const ex = await send(v, other);
    const b = answerOf(ex);
    if (a.status === 429 || b.status === 429) continue;
    ctx.expect.that(same(a, b), {
      expected: `${what(v)} answers alike for tenant ${other} as for the first tenant (${what(value)} does: ${shown(mine)})`,
      observed: `${shown(b)} for ${other}, ${shown(a)} for the first tenant`,
      exchange: ex,
    });
  }
}

export const tenantsMatchAlike = defineCheck({
  name: 'generated.tenants-match-alike',
  title:
    'a value in other letter case or cut short (a filter, a connector id) is matched alike for the second tenant as for the first, where the exact value answers alike for both',
  severity: 'SHOULD',
  section: 'Network Connections Service Interface',
  tags: ['generated', 'tenants'],
  mutating: false,
  requires: ['token', 'other-tenant'],
  async run(ctx) {
    const other = must(ctx.target.otherTenant, 'requires other-tenant');
    for (const op of operations()) {
      const filters = op.fields.filter((f) => f.in === 'query' && !f.required);
      if (op.route.method !== 'GET' || (op.route.kind ?? 'json') !== 'json' || !op.route.auth || !filters.length)
        continue;
      const all = await ctx.call('GET', op.route.path);
      const data = (all.json as { data?: Record<string, unknown> } | undefined)?.data ?? {};
      const entry = (Object.values(data).find(Array.isArray) as Record<string, unknown>[] | undefined)?.[0];
      if (!entry || typeof entry !== 'object') continue;
      for (const f of filters) {
        const plural = entry[`${f.name}s`];
        const value = entry[f.name] ?? (Array.isArray(plural) ? plural[0] : undefined);
        if (typeof value !== 'string') continue;
        const send = (v: string, tenant?: string) =>
          ctx.call('GET', op.route.path, { query: { [f.name]: v }, ...(tenant ? { tenant } : {}) });
        await judgeVariants(ctx, (v) => `GET ${op.route.path}?${f.name}=${v}`, value, send, other);
      }
    }
    const pair = await knownPair(ctx);
    if (!pair) return;
    const path = must(ROUTE_BY_ID.get('checkCapability'), 'the contract defines checkCapability').path;
    const send = (v: string, tenant?: string) =>
      ctx.call('POST', path, { json: { ...pair, connectorId: v }, ...(tenant ? { tenant } : {}) });
    await judgeVariants(ctx, (v) => `POST ${path} with connectorId ${v}`, pair.connectorId, send, other);
  },
});

export const tenantAlikeChecks = [tenantsMatchAlike];
