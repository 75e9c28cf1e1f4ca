import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { altSecond, EARLIER, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 45, part 1: answers (envelopes, errors, records) wrong only in one place or condition. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});

export const ROUND45_ANSWERS: UnseenViolation[] = [
  {
    name: 'alt-replay-reports-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (a replay under {alt_base_url})',
    answer(c, a) {
      // The alternate region's replay store was filled before its upgrade and keeps the old meta.version.
      home(c);
      if (c.base === 'alt' && isCreate(c) && a.json.meta?.replayed === true) a.json.meta.version = EARLIER;
    },
  },
  {
    name: 'conflicting-body-overwrites-replay-scope-label',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again (a replay after a refused conflicting call)',
    answer(c, a) {
      // The replay row is upserted with the incoming body before the fingerprint check refuses it.
      home(c);
      const key = c.headers['idempotency-key'];
      if (!isCreate(c) || !key) return;
      const label = bodyOf(c.body).scopeLabel ?? bodyOf(c.body).restaurantId;
      if (a.json.error?.code === 'idempotency_conflict' && typeof label === 'string')
        c.memory.set(`r45-poison-${key}`, label);
      const poisoned = c.memory.get(`r45-poison-${key}`);
      if (a.json.meta?.replayed === true && typeof poisoned === 'string' && a.json.data)
        a.json.data.scopeLabel = poisoned;
    },
  },
  {
    name: 'not-found-hint-names-owning-tenant',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details (a 404 for an entry of another tenant)',
    answer(c, a) {
      // The ORM's "row exists under another owner" diagnostic is copied into the hint.
      const first = home(c);
      const deep = c.path.split('/').length > P('/connections').split('/').length;
      if (deep && a.status === 404 && a.json.error?.code === 'not_found')
        a.json.error.hint = `Row exists in tenants table shard ncs-db-3 (owner != ${c.headers['x-service-tenant'] ?? first}).`;
    },
  },
  {
    name: 'alt-not-found-answered-400',
    statement: 'Errors: not_found | 404 | the entry does not exist (answered under {alt_base_url})',
    answer(c, a) {
      // The alternate gateway maps every upstream 4xx it has no rule for to 400, keeping the body.
      home(c);
      if (c.base === 'alt' && a.status === 404 && a.json.error?.code === 'not_found') a.status = 400;
    },
  },
  {
    name: 'alt-missing-key-hint-as-array',
    statement: 'Failure envelope: error.hint | string | no (idempotency_required under {alt_base_url})',
    answer(c, a) {
      // The alternate region's error renderer joins remedies only for codes it knows; new ones stay a list.
      home(c);
      if (c.base === 'alt' && a.json.error?.code === 'idempotency_required')
        a.json.error.hint = ['Send the key', 'POST /api/public/v1/idempotency-keys issues one'];
    },
  },
  {
    name: 'alt-second-tenant-capability-count-zero',
    statement:
      'GET /api/public/v1/capabilities: data: count (integer), capabilities (a second tenant under {alt_base_url})',
    answer(c, a) {
      // The partner catalog counts rows of its tenant overrides table, which is empty.
      const hit = altSecond(c);
      const d = a.json.data as Rec | undefined;
      if (hit && c.method === 'GET' && c.path === P('/capabilities') && typeof d?.count === 'number') d.count = 0;
    },
  },
  {
    name: 'earlier-version-created-at-without-zone',
    statement: 'Connection: createdAt | string, date-time (a creation under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 serializer formats the database's timestamp without its zone.
      home(c);
      const at = a.json.data?.createdAt;
      if (earlier(c) && isCreate(c) && typeof at === 'string') a.json.data.createdAt = at.replace(/(\.\d+)?Z$/, '');
    },
  },
  {
    name: 'second-tenant-replay-request-id-null',
    statement: 'Meta: requestId | string | Required: yes (a second tenant’s replayed creation)',
    answer(c, a) {
      // Replays for partner tenants are served from the cache tier, which never stamps a request id.
      const second = isSecond(c);
      if (second && isCreate(c) && a.json.meta?.replayed === true) a.json.meta.requestId = null;
    },
  },
];
