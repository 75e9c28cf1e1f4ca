import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 27 of the unseen violations, part 1: answers — a key issued with 201, the creation after a
 * replay reporting the replayed connection's id, an idempotency conflict sent with the original's
 * success body, an unmatched category filter without its count, check answers stamped with a comma
 * before the fraction, the second tenant's listed connections wrapped one level deeper, the 428 served
 * as text/plain, a pilot connection's nextStep listed as an array, and denied decisions reporting the
 * earlier version.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200;
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isList = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connections');
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const keyOf = (c: ProxyCall) => c.headers['idempotency-key'];

export const ROUND27_ANSWERS: UnseenViolation[] = [
  {
    name: 'key-issue-answered-201',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope (POST /api/public/v1/idempotency-keys)',
    answer(c, a) {
      // The key endpoint was written as a "create" handler and answers 201 Created with the usual body.
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && ok(a)) a.status = 201;
    },
  },
  {
    name: 'creation-after-replay-reports-replayed-id',
    statement:
      'POST /api/public/v1/connections: data: the Connection (Connection: id) — GET /connections lists the connections of the tenant',
    answer(c, a) {
      // The replay path leaves the replayed row in the request-scoped cache; the next fresh creation of
      // the tenant serialises its answer from that cache, so it reports the replayed connection's id.
      if (!isCreate(c) || !ok(a) || !a.json.data?.id) return;
      const slot = `r27-replayed-id:${tenantOf(c)}`;
      if (a.json.meta?.replayed === true) {
        c.memory.set(slot, a.json.data.id);
        return;
      }
      const stale = c.memory.get(slot) as string | undefined;
      if (!stale) return;
      c.memory.delete(slot);
      a.json.data.id = stale;
    },
  },
  {
    name: 'conflict-status-with-replayed-body',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict. (Failure envelope: ok always false, error.code)',
    answer(c, a) {
      // The conflict detector sets the status, but the body writer takes the stored answer of the key.
      const key = keyOf(c);
      if (!isCreate(c) || !key) return;
      const slot = `r27-first:${tenantOf(c)}:${key}`;
      if (ok(a) && !c.memory.has(slot)) c.memory.set(slot, structuredClone(a.json));
      if (a.status !== 409 || a.json.error?.code !== 'idempotency_conflict') return;
      const first = c.memory.get(slot) as Rec | undefined;
      if (first) a.json = { ...structuredClone(first), meta: { ...a.json.meta, replayed: true, idempotencyKey: key } };
    },
  },
  {
    name: 'unmatched-category-lacks-count',
    statement: 'GET /api/public/v1/providers: data: count (integer), providers (array of Provider)',
    answer(c, a) {
      // An empty result of a filtered query takes a short path that only sets the (empty) list.
      if (c.method !== 'GET' || !ok(a) || !c.search.get('category')) return;
      for (const field of ['providers', 'connectors'])
        if (Array.isArray(a.json.data?.[field]) && a.json.data[field].length === 0) delete a.json.data.count;
    },
  },
  {
    name: 'check-meta-at-comma-fraction',
    statement: 'Meta: at — string, date-time (POST /api/public/v1/capabilities answers)',
    answer(c, a) {
      // The policy service formats its time stamp with an ISO 8601 formatter of a European locale,
      // which writes the decimal comma (allowed by ISO 8601, not by RFC 3339).
      if (!isCheck(c) || typeof a.json.meta?.at !== 'string') return;
      const at = a.json.meta.at as string;
      a.json.meta.at = at.includes('.') ? at.replace('.', ',') : at.replace(/Z$/, ',000Z');
    },
  },
  {
    name: 'second-tenant-listed-connections-wrapped',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection)',
    answer(c, a) {
      // The second tenant is served by a newer storage adapter that returns rows as { connection }.
      const own = home(c);
      if (!isList(c) || !ok(a) || !own || tenantOf(c) === own) return;
      const list = a.json.data?.connections;
      if (Array.isArray(list)) a.json.data.connections = list.map((connection: Rec) => ({ connection }));
    },
  },
  {
    name: 'missing-key-refusal-served-as-text-plain',
    statement:
      'Errors: Error responses use the failure envelope (idempotency_required 428; Success envelope: every JSON response)',
    answer(_c, a) {
      // The key guard writes its refusal with res.send(string), whose default type is text/plain.
      if (a.status !== 428) return;
      a.headers['content-type'] = 'text/plain; charset=utf-8';
      a.raw = JSON.stringify(a.json);
    },
  },
  {
    name: 'pilot-listed-next-step-as-array',
    statement: 'Connection: nextStep — string (GET /api/public/v1/connections)',
    answer(c, a) {
      // Pilot connections get a checklist; the list serialiser writes the checklist itself.
      if (!isList(c) || !ok(a) || !Array.isArray(a.json.data?.connections)) return;
      for (const e of a.json.data.connections as Rec[])
        if (e.environment === 'pilot' && typeof e.nextStep === 'string')
          e.nextStep = [e.nextStep, 'confirm pilot scope'];
    },
  },
  {
    name: 'denied-decision-reports-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version.',
    answer(c, a) {
      // A denied check is answered by the legacy policy module, which stamps its own version.
      if (!isCheck(c) || !ok(a) || a.json.data?.decision?.allowed !== false || !a.json.meta) return;
      if (c.headers['service-version'] && c.headers['service-version'] !== '2026-07-01') return;
      a.json.meta.version = '2026-06-12';
    },
  },
];
