import { randomUUID } from 'node:crypto';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 30 of the unseen violations, part 2: inputs — checks for a tenant that is not released answered
 * with a decision, key issuance served without a token, over-long capabilities of production checks
 * clamped, one-character scope labels accepted for pilot, one-character operations accepted under the
 * alternate address, creations without a key written before the 428, the second tenant's creations
 * without an environment defaulted, cursor 0 refused under the alternate address, and the alternate
 * address ignoring the connectors' capability filter.
 */
type Rec = Record<string, any>;
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);

/** A failure envelope the deployment builds itself (its own request id, version and time). */
function ownRefusal(status: number, code: string, message: string, detail: string): ProxyAnswer {
  const requestId = `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const a: ProxyAnswer = {
    status: 200,
    headers: { 'x-request-id': requestId },
    json: { meta: { requestId, version: '2026-07-01', at: new Date().toISOString() } },
  };
  refuse(a, status, code, message, detail);
  return a;
}

export const ROUND30_INPUTS: UnseenViolation[] = [
  {
    name: 'unreleased-tenant-checks-answered-with-decision',
    statement: 'Errors: forbidden — 403 — access may not perform the action — tenant not released',
    answer(c, a) {
      // The check endpoint was moved to a read-only policy service that never asks whether the tenant is
      // released; it answers a negative decision instead of the refusal.
      if (!isCheck(c) || a.status !== 403 || a.json.error?.code !== 'forbidden') return;
      const b = body(c) ?? {};
      a.status = 200;
      a.json = {
        ok: true,
        data: {
          decision: {
            connectorId: String(b.connectorId),
            capability: String(b.capability),
            allowed: false,
            critical: false,
            idempotencyRequired: false,
            reason: 'capability is not released for this tenant',
          },
          environment: typeof b.environment === 'string' ? b.environment : 'sandbox',
        },
        meta: a.json.meta,
      };
    },
  },
  {
    name: 'key-issue-served-without-token',
    statement:
      'Endpoints: POST /api/public/v1/idempotency-keys — Auth: yes (Errors: unauthorized — 401 — token missing)',
    request(c) {
      // The key endpoint sits behind a session cache that reuses the last authenticated caller when a
      // request brings no Authorization header.
      const auth = c.headers.authorization;
      if (auth) {
        c.memory.set('r30-auth', { auth, tenant: tenantOf(c) });
        return undefined;
      }
      const last = c.memory.get('r30-auth') as { auth: string; tenant: string } | undefined;
      if (last && c.method === 'POST' && c.path === P('/idempotency-keys')) {
        c.headers.authorization = last.auth;
        if (!c.headers['x-service-tenant']) c.headers['x-service-tenant'] = last.tenant;
      }
      return undefined;
    },
  },
  {
    name: 'production-check-capability-over-120-clamped',
    statement: 'Limits: connectorId, capability (checks and connection creation) — length 2 to 120',
    request(c) {
      // The production policy client truncates identifiers to its column width instead of validating.
      const b = body(c);
      if (isCheck(c) && b?.environment === 'production' && typeof b.capability === 'string')
        c.body = { ...b, capability: b.capability.slice(0, 120) };
      return undefined;
    },
  },
  {
    name: 'pilot-one-character-scope-label-accepted',
    statement: 'Limits: scopeLabel — length 2 to 120 (POST /api/public/v1/connections, environment pilot)',
    request(c) {
      // Pilot creations go through an onboarding form adapter that pads short venue names.
      const b = body(c);
      if (isCreate(c) && b?.environment === 'pilot' && typeof b.scopeLabel === 'string' && b.scopeLabel.length === 1)
        c.body = { ...b, scopeLabel: `${b.scopeLabel}_` };
      return undefined;
    },
  },
  {
    name: 'alt-one-character-operation-accepted',
    statement: 'Limits: operation in idempotency key creation — length 2 to 80 (under {alt_base_url})',
    request(c) {
      // The alternate domain's key endpoint validates with an older schema whose minimum was 1.
      const b = body(c);
      if (c.base === 'alt' && c.method === 'POST' && c.path === P('/idempotency-keys')) {
        if (typeof b?.operation === 'string' && b.operation.length === 1)
          c.body = { ...b, operation: `${b.operation}.` };
      }
      return undefined;
    },
  },
  {
    name: 'missing-key-creation-written-before-refusal',
    statement:
      'POST /api/public/v1/connections: A missing key yields idempotency_required (Errors: idempotency_required — 428 — an idempotency key is mandatory)',
    request(c) {
      // The key check runs in an after-write hook: the connection is stored, then the answer becomes 428.
      if (isCreate(c) && !c.headers['idempotency-key']) {
        c.headers['idempotency-key'] = `auto-${randomUUID()}`;
        c.headers['x-r30-keyless'] = '1';
      }
      return undefined;
    },
    answer(c, a) {
      if (!isCreate(c) || c.headers['x-r30-keyless'] !== '1' || a.status !== 200) return;
      refuse(a, 428, 'idempotency_required', 'An idempotency key is mandatory for this call.', 'Send Idempotency-Key.');
    },
  },
  {
    name: 'second-tenant-creation-environment-defaulted',
    statement: 'POST /api/public/v1/connections: Body (JSON), all fields required — environment (Environment)',
    request(c) {
      // The tenant routing layer for further tenants fills an absent environment with the default sandbox.
      const first = home(c);
      const b = body(c);
      if (isCreate(c) && b && first && tenantOf(c) !== first && (b.environment === undefined || b.environment === null))
        c.body = { ...b, environment: 'sandbox' };
      return undefined;
    },
  },
  {
    name: 'alt-cursor-zero-refused',
    statement: 'GET /api/public/v1/stream: cursor — query, integer, minimum 0 (under {alt_base_url})',
    request(c) {
      // The alternate domain's edge validates the cursor as a positive integer.
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('/stream') || c.search.get('cursor') !== '0')
        return undefined;
      return ownRefusal(400, 'invalid_request', 'The request is incomplete or unsuitable.', 'cursor must be >= 1.');
    },
  },
  {
    name: 'alt-connectors-capability-filter-ignored',
    statement: 'GET /api/public/v1/connectors: Query parameter capability (under {alt_base_url})',
    request(c) {
      // The alternate domain's cache key drops the capability parameter, so the unfiltered list is served.
      if (c.base === 'alt' && c.method === 'GET' && c.path === P('/connectors')) c.search.delete('capability');
      return undefined;
    },
  },
];
