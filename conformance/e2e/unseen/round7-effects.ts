import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';
import { failure, rememberLimits } from './round6-support.ts';

/**
 * Round 7 of the unseen violations, part 4 (a second outsider): effects that depend on what came
 * before or on a second condition — two connector filters of which one is dropped, a capability
 * filter matched by family, a category list missing its last match, sub-resources of a sibling
 * tenant handed out, audit pages without their proof or without webhook changes, issued keys
 * refused, decisions cached per connector, and the second replay no longer marked.
 */
type Rec = Record<string, unknown>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
/** The capability a filtered read asked for, where a hook took it off the query sent on. */
const askedCapability = new WeakMap<ProxyCall, string>();
const connectionPath = new RegExp(`^${P('/connections')}/([^/]+)$`);
const webhookPath = new RegExp(`^${P('/webhooks')}/([^/]+)(/.*)?$`);
const family = (id: string) => id.split('.')[0] ?? id;

export const ROUND7_EFFECTS: UnseenViolation[] = [
  {
    name: 'provider-filter-dropped-beside-category',
    statement:
      'GET /api/public/v1/connectors: query parameters capability, providerId, category (each restricts; together too)',
    request(c) {
      // The filter builder is an if/else-if chain: category wins and providerId is never applied.
      if (c.method === 'GET' && c.path === P('/connectors') && c.search.has('category') && c.search.has('providerId'))
        c.search.delete('providerId');
      return undefined;
    },
  },
  {
    name: 'capability-filter-matches-family',
    statement: 'GET /api/public/v1/connectors: capability (restricts to connectors offering that capability)',
    request(c) {
      // The index is built per capability family (orders, menu, ...) and the filter looks up the family.
      const asked = c.search.get('capability');
      if (c.method !== 'GET' || c.path !== P('/connectors') || !asked) return undefined;
      askedCapability.set(c, asked);
      c.search.delete('capability');
      return undefined;
    },
    answer(c, a) {
      const asked = askedCapability.get(c);
      const list = a.json.data?.connectors as Rec[] | undefined;
      if (asked === undefined || a.status !== 200 || !Array.isArray(list)) return;
      const kept = list.filter(
        (x) => Array.isArray(x.capabilities) && x.capabilities.some((k) => family(String(k)) === family(asked)),
      );
      a.json.data.connectors = kept;
      a.json.data.count = kept.length;
    },
  },
  {
    name: 'category-filter-drops-last-match',
    statement: 'GET /api/public/v1/providers: category (restricts to one category — every provider of it)',
    answer(c, a) {
      // The filtered query pages with "< end" where the unfiltered one uses "<= end".
      const list = a.json.data?.providers as Rec[] | undefined;
      if (c.method !== 'GET' || c.path !== P('/providers') || !c.search.get('category') || a.status !== 200) return;
      if (!Array.isArray(list) || list.length < 2) return;
      list.pop();
      a.json.data.count = list.length;
    },
  },
  {
    name: 'sibling-tenant-reads-connection-by-id',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier, entry belongs to another tenant (one connection read by id)',
    request(c) {
      // The read by id looks the row up by id alone and answers as its owner.
      const id = connectionPath.exec(c.path)?.[1];
      const owner = id ? (c.memory.get(`con:${id}`) as string | undefined) : undefined;
      if (c.method === 'GET' && owner && owner !== tenantOf(c)) c.headers['x-service-tenant'] = owner;
      return undefined;
    },
    answer(c, a) {
      const id = a.json.data?.id;
      if (isCreate(c) && a.status === 200 && typeof id === 'string') c.memory.set(`con:${id}`, tenantOf(c));
    },
  },
  {
    name: 'sibling-tenant-reads-webhook-deliveries',
    statement:
      'Errors: not_found | 404 | entry belongs to another tenant (a webhook receiver and its delivery log are entries of the tenant)',
    request(c) {
      // The delivery log is authorised by the receiver id only (it is "unguessable").
      const id = webhookPath.exec(c.path)?.[1];
      const owner = id ? (c.memory.get(`wh:${id}`) as string | undefined) : undefined;
      if (c.method === 'GET' && owner && owner !== tenantOf(c)) c.headers['x-service-tenant'] = owner;
      return undefined;
    },
    answer(c, a) {
      const id = a.json.data?.id;
      if (c.method === 'POST' && c.path === P('/webhooks') && a.status === 200 && typeof id === 'string')
        c.memory.set(`wh:${id}`, tenantOf(c));
    },
  },
  {
    name: 'audit-proof-only-on-whole-log',
    statement:
      'GET /api/public/v1/audit-log: traceable changes of the tenant, including a proof of integrity (a page cut by limit too)',
    answer(c, a) {
      // The proof is computed only when the page holds the whole chain; a page cut by limit goes without.
      const d = a.json.data;
      const limit = Number(c.search.get('limit'));
      if (c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200 || !d || !Array.isArray(d.entries))
        return;
      const head = Number(d.proof?.chainHead?.seq ?? d.entries.length);
      if (Number.isFinite(limit) && limit > 0 && d.entries.length >= limit && head > d.entries.length) delete d.proof;
    },
  },
  {
    name: 'audit-omits-webhook-changes',
    statement: 'GET /api/public/v1/audit-log: traceable changes of the tenant (a webhook receiver created is a change)',
    answer(c, a) {
      // Only the connection service writes to the audit log; the webhook service never does.
      const d = a.json.data;
      if (c.method !== 'GET' || c.path !== P('/audit-log') || a.status !== 200 || !d || !Array.isArray(d.entries))
        return;
      const kept = (d.entries as Rec[]).filter((e) => !/webhook/i.test(`${e.action ?? ''} ${e.target ?? ''}`));
      if (kept.length === d.entries.length) return;
      d.entries = kept;
      if (typeof d.count === 'number') d.count = kept.length;
    },
  },
  {
    name: 'key-with-underscore-refused',
    statement:
      'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (underscore allowed — keys issued by POST /idempotency-keys too)',
    request(c) {
      // The validator of modifying calls was written as [A-Za-z0-9.:-] and lost the underscore.
      const key = c.headers['idempotency-key'];
      if (c.method !== 'POST' || !key?.includes('_')) return undefined;
      if (c.path !== P('/connections') && c.path !== P('/webhooks')) return undefined;
      return failure(c, 400, 'invalid_request', 'The Idempotency-Key does not match the pattern.');
    },
    // Passing answers are noted so the refusal carries the tenant's rate-limit headers like any other.
    answer: rememberLimits,
  },
  {
    name: 'decision-cached-per-connector',
    statement:
      'What the service does: a capability check returns a decision (allowed or not) with a reason — for the capability asked',
    answer(c, a) {
      // The decision cache is keyed by connector and environment, not by capability.
      const d = a.json.data?.decision as Rec | undefined;
      if (c.method !== 'POST' || c.path !== P('/capabilities') || a.status !== 200 || !d) return;
      const slot = `decision:${tenantOf(c)}:${String(d.connectorId)}:${String(a.json.data.environment)}`;
      const cached = c.memory.get(slot) as Rec | undefined;
      if (!cached) c.memory.set(slot, { allowed: d.allowed, reason: d.reason });
      else Object.assign(d, cached);
    },
  },
  {
    name: 'second-replay-not-marked',
    statement:
      'POST /connections: sending the same key with the same content returns the same response again, with meta.replayed true (every time)',
    answer(c, a) {
      // The "replayed" flag is set from a first-hit marker that is cleared after the first replay.
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key || a.status !== 200 || a.json.meta?.replayed !== true) return;
      const n = ((c.memory.get(`replays:${key}`) as number | undefined) ?? 0) + 1;
      c.memory.set(`replays:${key}`, n);
      if (n >= 2) delete a.json.meta.replayed;
    },
  },
];
