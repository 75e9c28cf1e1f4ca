import { BASE_PATH } from '../../simulator/contract/versions.ts';
import type { Exchange } from '../client/http-client.ts';
import { type CheckContext, defineCheck } from '../runner/check.ts';
import { receiverIdOf } from './support/one-list.ts';
import { documentOf, type OpenApiLike, type OperationLike, operationsOf } from './support/openapi.ts';
import { publicGet } from './support/public-get.ts';
import { webhookRoute } from './support/webhook-routes.ts';

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
    // A receiver's id may be a number (its fields are not shown); a connection's is a string.
    const id = collection === 'webhooks' ? receiverIdOf(data, url) : data?.id;
    const tenant = header(ex, 'x-service-tenant');
    if (collection && typeof id === 'string' && tenant)
      out.set(collection, [...(out.get(collection) ?? []), { id, tenant }]);
  }
  return out;
}

/** A read keyed by one entry's id: of the entry itself, or of a list that belongs to it (`/webhooks/{id}/deliveries`). */
export interface EntryRead {
  path: string;
  collection: string;
  /** The list of the entry (a receiver's delivery log), not the entry. */
  belongs: boolean;
}

const ENTRY_READ = /^(.*)\/([a-z-]+)\/\{[^}]+\}(\/[a-z-]+)?$/;

/** A list keyed by a query parameter (`/webhook-deliveries?webhookId={webhookId}`): the entry it belongs to by the parameter's name. */
const QUERY_READ = /^([^?{]*)\?([A-Za-z_]+)=\{[^}]+\}$/;
const COLLECTION_OF_PARAM: [RegExp, string][] = [
  [/^(webhook|receiver|hook)/i, 'webhooks'],
  [/^connection/i, 'connections'],
];

/**
 * The collection the kit creates in that a path segment names: its own name, or a receiver collection under
 * another name (`webhook-subscriptions`, `receivers`, `endpoints`: a deployment may manage the receivers it
 * registers at POST /webhooks under an alias); a segment naming deliveries or attempts is none.
 */
function collectionOfSegment(segment: string): string | undefined {
  return (
    CREATED_BY[segment] ??
    (/^(?:webhook|receiver|hook|subscription|endpoint)s?(?:[-_](?:subscription|receiver|endpoint)s?)?$/i.test(segment)
      ? 'webhooks'
      : undefined)
  );
}

/** A GET path whose only parameter is the id of an entry of a collection the kit creates in, if it is one. */
function entryRead(path: string): EntryRead | undefined {
  const q = QUERY_READ.exec(path);
  if (q) {
    const collection = COLLECTION_OF_PARAM.find(([re]) => re.test(q[2] ?? ''))?.[1];
    return collection ? { path, collection, belongs: true } : undefined;
  }
  const m = ENTRY_READ.exec(path);
  const collection = collectionOfSegment(m?.[2] ?? '');
  if (!m || (m[1] ?? '').includes('{') || !collection) return undefined;
  return { path, collection, belongs: m[3] !== undefined };
}

/** A documented GET without path parameters that requires one query parameter naming an entry (`webhookId`). */
function queryKeyedRead(path: string, op: OperationLike): string | undefined {
  if (path.includes('{')) return undefined;
  const required = (op.parameters ?? []).filter((p) => p?.in === 'query' && p.required === true);
  const [only] = required;
  return required.length === 1 &&
    typeof only?.name === 'string' &&
    COLLECTION_OF_PARAM.some(([re]) => re.test(only.name ?? ''))
    ? `${path}?${only.name}={${only.name}}`
    : undefined;
}

/**
 * The documented reads keyed by one entry of a collection the kit creates in, from the deployment's own
 * OpenAPI document (`/connections/{id}`, `/webhooks/{id}/deliveries`), and the delivery log its profile
 * declares (a path with {webhookId}, in its path or its query).
 */
export function entryReads(doc: OpenApiLike, deliveryLog?: string | null): EntryRead[] {
  const found = operationsOf(doc).flatMap(({ method, path, op }) => {
    const read = method === 'GET' ? entryRead(queryKeyedRead(path, op) ?? path) : undefined;
    return read ? [read] : [];
  });
  const declared = deliveryLog ? entryRead(deliveryLog) : undefined;
  if (declared && !found.some((r) => r.path === declared.path)) found.push(declared);
  return found;
}

/** Ids of the owner's answer (values of `id` fields in its data) that the stranger's answer shows too. */
function leaks(own: Exchange, foreign: Exchange): boolean {
  const ids = new Set<string>();
  const collect = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(collect);
    else if (v && typeof v === 'object')
      for (const [k, x] of Object.entries(v)) {
        if (/id$/i.test(k) && typeof x === 'string' && x.length >= 4) ids.add(x);
        collect(x);
      }
  };
  collect((own.json as { data?: unknown } | undefined)?.data);
  const text = JSON.stringify((foreign.json as { data?: unknown } | undefined)?.data ?? null);
  return [...ids].some((id) => text.includes(id));
}

export const foreignEntryNotFound = defineCheck({
  name: 'tenants.foreign-entry-not-found',
  title:
    "an entry read by id under a tenant it does not belong to answers 404 not_found (on every documented read of one connection or receiver, and of a list that belongs to one, such as a receiver's delivery log, which may instead answer the stranger's own list without the owner's data), while its own tenant reads it",
  severity: 'MUST',
  section: 'Errors',
  tags: ['tenants', 'errors'],
  mutating: false,
  requires: ['token', 'other-tenant'],
  // After the other checks: it reads back what they created, for both tenants.
  judgesRun: true,
  async run(ctx: CheckContext) {
    const doc = await publicGet(ctx, `${BASE_PATH}/openapi.json`);
    // The delivery log as declared, or as the deployment publishes it (a log filtered by an optional
    // `webhookId` query parameter is keyed by one receiver too); never the simulator's assumed path.
    const log = await webhookRoute(ctx, 'webhookDeliveryLogPath');
    const deliveryLog = log.source === 'assumed' ? undefined : log.template;
    const reads = entryReads(doc.status === 200 ? ((documentOf(doc.json) ?? {}) as OpenApiLike) : {}, deliveryLog);
    if (!reads.length)
      ctx.skip(
        'neither the OpenAPI document, the delivery log it publishes, nor the deployment profile (webhookDeliveryLogPath) names a read keyed by one connection or receiver (the interface shows none): nothing to read across tenants',
      );
    const created = createdEntries(ctx);
    const tenants = [ctx.target.tenant, ctx.target.otherTenant].filter((t): t is string => t !== undefined);
    let judged = 0;
    for (const { path, collection, belongs } of reads) {
      const entry = created.get(collection)?.[0];
      const stranger = tenants.find((t) => t !== entry?.tenant);
      if (!entry || !stranger) continue;
      // Ids counted per tenant: the stranger has an entry of that id of its own, which it reads (no verdict).
      if (created.get(collection)?.some((e) => e.id === entry.id && e.tenant === stranger)) continue;
      const at = path.replace(/\{[^}]+\}/, encodeURIComponent(entry.id));
      const own = await ctx.call('GET', at, { tenant: entry.tenant });
      // Its own tenant must read it, or this is not the entry read the path names (no verdict).
      if (own.status !== 200) continue;
      judged++;
      const foreign = await ctx.call('GET', at, { tenant: stranger });
      const rule = `GET ${at} under tenant ${stranger} (the entry belongs to ${entry.tenant})`;
      // A list that belongs to the entry may also be answered as the stranger's own (empty) list, as long
      // as none of the owner's data shows; a refusal is the entry's: 404 not_found.
      if (belongs && foreign.status === 200)
        ctx.expect.that(!leaks(own, foreign), {
          expected: `${rule} shows none of ${entry.tenant}'s data`,
          observed: 'it lists what the owner reads there',
          exchange: foreign,
        });
      else
        ctx.expect.errorCode(foreign, 'not_found', `${rule} answers 404 not_found: "entry belongs to another tenant"`);
    }
    if (!judged) ctx.skip('no documented read of one entry answered its own tenant 200: nothing to compare');
    ctx.note(`${judged} documented read(s) of one entry judged across tenants`);
  },
});
