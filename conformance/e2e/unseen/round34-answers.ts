import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, LISTS, P } from './proxy-helpers.ts';

/**
 * Round 34 of the unseen violations, part 1: answers — a second tenant's providers without a summary,
 * numeric connection ids and bare key strings under the alternate address, repeated catalog reads
 * without a request id, a second tenant's listed capability entries as plain strings, the alternate
 * address's failures stamped with an HTTP date, production venue names shouted in the list, and a
 * second tenant's connector capabilities joined into one text.
 */
type Rec = Record<string, any>;
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const isListing = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');

export const ROUND34_ANSWERS: UnseenViolation[] = [
  {
    name: 'second-tenant-provider-summary-null',
    statement: 'Provider: summary | string (in a second tenant’s provider list too)',
    answer(c, a) {
      // The second tenant's region reads summaries from a translation table that has no rows for it.
      const second = isSecond(c);
      if (!second || c.method !== 'GET' || c.path !== P('/providers') || a.status !== 200) return;
      for (const p of (a.json.data?.providers ?? []) as Rec[]) if (p && typeof p === 'object') p.summary = null;
    },
  },
  {
    name: 'alt-created-connection-id-numeric',
    statement: 'Connection: id | string (the creation answer under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's ORM returns its bigint serial column as a JSON number on insert.
      home(c);
      if (c.base !== 'alt' || !isCreate(c) || a.status !== 200 || typeof a.json.data?.id !== 'string') return;
      const ids = (c.memory.get('r34-serials') as Map<string, number> | undefined) ?? new Map<string, number>();
      c.memory.set('r34-serials', ids);
      const serial = ids.get(a.json.data.id) ?? 1000 + ids.size;
      ids.set(a.json.data.id, serial);
      a.json.data.id = serial;
    },
  },
  {
    name: 'repeated-catalog-read-lacks-request-id',
    statement: 'Meta: requestId | string | yes | identifier of this call (a repeated identical catalog read too)',
    answer(c, a) {
      // A response cache stores the envelope with the per-call id stripped and serves it on a hit.
      const tenant = c.headers['x-service-tenant'] ?? '';
      home(c);
      if (c.method !== 'GET' || !LISTS[c.path] || c.path === P('/connections') || a.status !== 200) return;
      const key = `r34-seen:${tenant}:${c.base}:${c.path}?${c.search.toString()}`;
      if (!c.memory.has(key)) return void c.memory.set(key, true);
      if (a.json.meta) delete a.json.meta.requestId;
    },
  },
  {
    name: 'second-tenant-listed-capability-entries-as-strings',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean) (a second tenant’s list too)',
    answer(c, a) {
      // The second tenant's list is served from a read model that only stores the capability ids.
      const second = isSecond(c);
      if (!second || !isListing(c) || a.status !== 200) return;
      for (const x of (a.json.data?.connections ?? []) as Rec[])
        if (Array.isArray(x?.capabilities)) x.capabilities = x.capabilities.map((e: Rec) => e?.capability ?? e);
    },
  },
  {
    name: 'alt-key-issue-data-bare-string',
    statement:
      'Success envelope: data | object | yes; POST /api/public/v1/idempotency-keys: data: idempotencyKey, operation, expiresAt (under {alt_base_url} too)',
    answer(c, a) {
      // The alternate address still runs the first key endpoint, which answered the key alone.
      home(c);
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200) return;
      const key = a.json.data?.idempotencyKey;
      if (typeof key === 'string') a.json.data = key;
    },
  },
  {
    name: 'alt-failure-meta-at-http-date',
    statement: 'Meta: at | string, date-time | yes (in failure envelopes under {alt_base_url} too)',
    answer(c, a) {
      // The alternate error middleware stamps the time with toUTCString, as it does for the Date header.
      home(c);
      if (c.base !== 'alt' || a.status < 400 || typeof a.json.meta?.at !== 'string') return;
      const at = new Date(a.json.meta.at);
      if (!Number.isNaN(at.getTime())) a.json.meta.at = at.toUTCString();
    },
  },
  {
    name: 'production-listed-scope-label-uppercased',
    statement:
      'Connection: scopeLabel | string | descriptive name, e.g. the name of the venue (a listed production connection shows the name it was created with)',
    answer(c, a) {
      // A display formatter for production venues (meant for the operator console) runs in the list query.
      home(c);
      if (!isListing(c) || a.status !== 200) return;
      for (const x of (a.json.data?.connections ?? []) as Rec[])
        if (x?.environment === 'production' && typeof x.scopeLabel === 'string')
          x.scopeLabel = x.scopeLabel.toUpperCase();
    },
  },
  {
    name: 'second-tenant-connector-capabilities-comma-joined',
    statement: 'Connector: capabilities | array of string (in a second tenant’s connector list too)',
    answer(c, a) {
      // The second tenant's region serialises the column with a CSV helper left from an export job.
      const second = isSecond(c);
      if (!second || c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200) return;
      for (const x of (a.json.data?.connectors ?? []) as Rec[])
        if (Array.isArray(x?.capabilities)) x.capabilities = x.capabilities.join(',');
    },
  },
];
