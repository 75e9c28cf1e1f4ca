import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { must } from '../runner/invariant.ts';
import { receiverIdOf } from './support/one-list.ts';
import { type OpenApiLike, operationsOf } from './support/openapi.ts';
import { publicGet } from './support/public-get.ts';

/** Collections whose entries the kit creates, by the last path segment before the id. */
const CREATED_BY: Record<string, string> = { connections: 'connections', webhooks: 'webhooks' };

const header = (ex: Exchange, name: string) =>
  Object.entries(ex.requestHeaders).find(([k]) => k.toLowerCase() === name)?.[1];

/** Entries the run created, per collection: their id and the tenant that created them. */
function createdEntries(ctx: CheckContext): Map<string, { id: string; tenant: string }[]> {
  const out = new Map<string, { id: string; tenant: string }[]>();
  for (const { ex } of ctx.exchanges()) {
    if (ex.method !== 'POST' || ex.status !== 200) continue;
    const collection = CREATED_BY[new URL(ex.url).pathname.replace(`${BASE_PATH}/`, '')];
    const data = (ex.json as { data?: Record<string, unknown> } | undefined)?.data;
    // A receiver's id is wherever the registration answer puts it (its fields are not shown).
    const url = (() => {
      try {
        return String((JSON.parse(ex.requestBody ?? '{}') as { url?: unknown }).url ?? '');
      } catch {
        return '';
      }
    })();
    const id = collection === 'webhooks' ? receiverIdOf(data, url) : data?.id;
    const tenant = header(ex, 'x-service-tenant');
    if (collection && typeof id === 'string' && tenant)
      out.set(collection, [...(out.get(collection) ?? []), { id, tenant }]);
  }
  return out;
}

/**
 * The documented reads of one entry of a collection the kit creates in: GET paths whose only parameter
 * follows the collection's name (`/connections/{id}`), from the deployment's own OpenAPI document.
 */
export function entryReads(doc: OpenApiLike): { path: string; collection: string }[] {
  return operationsOf(doc).flatMap(({ method, path }) => {
    const m = /^(.*)\/([a-z-]+)\/\{[^}]+\}$/.exec(path);
    if (method !== 'GET' || !m || (m[1] ?? '').includes('{') || !CREATED_BY[m[2] ?? '']) return [];
    return [{ path, collection: must(CREATED_BY[m[2] ?? ''], 'matched') }];
  });
}

export const foreignEntryNotFound = defineCheck({
  name: 'tenants.foreign-entry-not-found',
  title:
    'an entry read by id under a tenant it does not belong to answers 404 not_found (on every documented read of one connection or receiver), while its own tenant reads it',
  severity: 'MUST',
  section: 'Errors',
  tags: ['tenants', 'errors'],
  mutating: false,
  requires: ['token', 'other-tenant'],
  // After the other checks: it reads back what they created, for both tenants.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const doc = await publicGet(ctx, `${BASE_PATH}/openapi.json`);
    const reads = doc.status === 200 ? entryReads((doc.json ?? {}) as OpenApiLike) : [];
    if (!reads.length)
      ctx.skip(
        'the OpenAPI document offers no read of one connection or receiver by id (the interface shows none): nothing to read across tenants',
      );
    const created = createdEntries(ctx);
    const tenants = [ctx.target.tenant, ctx.target.otherTenant].filter((t): t is string => t !== undefined);
    let judged = 0;
    for (const { path, collection } of reads) {
      const entry = created.get(collection)?.[0];
      const stranger = tenants.find((t) => t !== entry?.tenant);
      if (!entry || !stranger) continue;
      const at = path.replace(/\{[^}]+\}$/, encodeURIComponent(entry.id));
      const own = await ctx.call('GET', at, { tenant: entry.tenant });
      // Its own tenant must read it, or this is not the entry read the path names (no verdict).
      if (own.status !== 200) continue;
      judged++;
      const foreign = await ctx.call('GET', at, { tenant: stranger });
      ctx.expect.errorCode(
        foreign,
        'not_found',
        `GET ${at} under tenant ${stranger} (the entry belongs to ${entry.tenant}) answers 404 not_found: "entry belongs to another tenant"`,
      );
    }
    if (!judged) ctx.skip('no documented read of one entry answered its own tenant 200: nothing to compare');
    ctx.note(`${judged} documented read(s) of one entry judged across tenants`);
  },
});
