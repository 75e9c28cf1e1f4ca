import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 29 of the unseen violations, part 1: answers — the second tenant's connection list answered
 * 206, a hyphenated idempotency_required code, refusals for a tenant not released answered 451, every
 * third decision with allowed null, the alternate address's connection list without the tenant, an
 * empty remaining header on the capability catalog, category-filtered connectors without providerId,
 * production decisions without critical, and the second tenant's issued keys without their operation.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');

export const ROUND29_ANSWERS: UnseenViolation[] = [
  {
    name: 'second-tenant-list-answered-206',
    statement: 'Endpoints: Success responses use status 200 and the success envelope.',
    answer(c, a) {
      // A pagination layer added for large tenants answers "Partial Content" for any tenant but the one
      // the client first worked for, even though the whole list is sent.
      const first = home(c);
      if (c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      if (first && tenantOf(c) !== first) a.status = 206;
    },
  },
  {
    name: 'idempotency-required-code-hyphenated',
    statement: 'Failure envelope: error.code — one of the codes in the Errors part (idempotency_required, 428)',
    answer(_c, a) {
      // The key middleware comes from a shared library whose error codes are kebab-case.
      if (a.status === 428 && a.json.error?.code === 'idempotency_required') a.json.error.code = 'idempotency-required';
    },
  },
  {
    name: 'forbidden-answered-451',
    statement:
      'Endpoints: may answer with the statuses 400, 401, 403, 404, 409, 428, 429, 500 (Errors: forbidden — 403)',
    answer(_c, a) {
      // A legal-hold filter in the gateway turns refusals for tenants that are not released into
      // "Unavailable For Legal Reasons"; the body keeps the forbidden code.
      if (a.status === 403 && a.json.error?.code === 'forbidden') a.status = 451;
    },
  },
  {
    name: 'third-check-allowed-null',
    statement: 'CapabilityDecision (all fields required): allowed — boolean',
    answer(c, a) {
      // The policy cache answers every third lookup from a stale entry whose verdict was never filled.
      if (!isCheck(c) || a.status !== 200 || !a.json.data?.decision) return;
      const n = ((c.memory.get('r29-checks') as number | undefined) ?? 0) + 1;
      c.memory.set('r29-checks', n);
      if (n % 3 === 0) a.json.data.decision.allowed = null;
    },
  },
  {
    name: 'alt-connections-list-lacks-tenant',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection)',
    answer(c, a) {
      // The alternate domain is served by an older edge build that returns the list without the tenant.
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/connections') || a.status !== 200) return;
      if (a.json.data) delete a.json.data.tenant;
    },
  },
  {
    name: 'catalog-remaining-header-empty',
    statement: 'Limits: Response headers: X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The capability catalog is served from a cached response whose remaining counter is blanked.
      if (c.method !== 'GET' || c.path !== P('/capabilities') || a.status !== 200) return;
      for (const k of Object.keys(a.headers)) if (k.toLowerCase() === 'x-ratelimit-remaining') a.headers[k] = '';
    },
  },
  {
    name: 'category-filtered-connectors-lack-provider-id',
    statement:
      'Connector: providerId — string (GET /api/public/v1/connectors?category=…: connectors (array of Connector))',
    answer(c, a) {
      // The category index stores a projection of the connector without its provider reference.
      if (c.method !== 'GET' || c.path !== P('/connectors') || a.status !== 200 || !c.search.get('category')) return;
      for (const r of (a.json.data?.connectors as Rec[] | undefined) ?? []) if (r) delete r.providerId;
    },
  },
  {
    name: 'production-decision-lacks-critical',
    statement:
      'CapabilityDecision (all fields required): critical — boolean (POST /capabilities, environment production)',
    answer(c, a) {
      // Production decisions come from the live policy service, which does not know the catalog's
      // critical flag and leaves it out.
      const env = (c.body as Rec | undefined)?.environment;
      if (!isCheck(c) || a.status !== 200 || env !== 'production' || !a.json.data?.decision) return;
      delete a.json.data.decision.critical;
    },
  },
  {
    name: 'second-tenant-issued-key-lacks-operation',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey (string), operation (string), expiresAt (date-time)',
    answer(c, a) {
      // Keys for further tenants are issued by the multi-tenant key service, whose answer omits the operation.
      const first = home(c);
      if (c.method !== 'POST' || c.path !== P('/idempotency-keys') || a.status !== 200) return;
      if (first && tenantOf(c) !== first && a.json.data) delete a.json.data.operation;
    },
  },
];
