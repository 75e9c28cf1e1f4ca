import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/**
 * Round 9 of the unseen violations, part 1: answers wrong only under one condition — one environment
 * value, the alternate address, the earlier Service-Version, one endpoint's refusals — and error
 * envelopes that carry internal or raw data.
 */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Record<string, unknown>) : {});
const failed = (a: ProxyAnswer) => a.status >= 400 && a.json.ok === false && a.json.error;

export const ROUND9_ANSWERS: UnseenViolation[] = [
  {
    name: 'production-decision-idempotency-flag-false',
    statement:
      'CapabilityDecision (all fields required): idempotencyRequired (boolean); Capability: idempotencyRequired — whether calls using this capability need an idempotency key',
    answer(c, a) {
      // The production policy table has no idempotency column, so the flag falls back to false.
      const d = a.json.data?.decision;
      if (isCheck(c) && a.status === 200 && d && body(c).environment === 'production') d.idempotencyRequired = false;
    },
  },
  {
    name: 'pilot-check-omits-environment',
    statement: 'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment)',
    answer(c, a) {
      // The pilot branch builds its own answer and forgets the echoed environment.
      if (isCheck(c) && a.status === 200 && a.json.data && body(c).environment === 'pilot')
        delete a.json.data.environment;
    },
  },
  {
    name: 'production-creation-lacks-meta-version',
    statement: 'Meta: version | string | yes | interface version (every JSON success response carries meta)',
    answer(c, a) {
      if (isCreate(c) && a.status === 200 && a.json.meta && body(c).environment === 'production')
        delete a.json.meta.version;
    },
  },
  {
    name: 'not-found-detail-shows-query',
    statement:
      'Errors: They contain the request identifier (meta.requestId) but no internal details; the identifier is all that support needs',
    answer(c, a) {
      // The repository error text is passed through as the detail.
      if (!failed(a) || a.json.error.code !== 'not_found') return;
      a.json.error.detail = `SELECT * FROM connections WHERE tenant_id='${c.headers['x-service-tenant'] ?? ''}' AND id=$1 -- pg-main-2`;
    },
  },
  {
    name: 'invalid-request-detail-echoes-body',
    statement:
      'Errors: ... but no internal details; the identifier is all that support needs (no tokens or raw data are to be sent along)',
    answer(c, a) {
      // The validator includes the raw request it rejected.
      if (!failed(a) || a.json.error.code !== 'invalid_request' || c.body === undefined) return;
      a.json.error.detail = `rejected payload: ${JSON.stringify(c.body)}`;
    },
  },
  {
    name: 'alt-invalid-request-as-422',
    statement:
      'Errors: invalid_request | 400 | request incomplete or unsuitable (under {alt_base_url}, "the same interface")',
    answer(c, a) {
      // The alternate region's gateway maps validation failures to 422.
      if (c.base === 'alt' && failed(a) && a.json.error.code === 'invalid_request') a.status = 422;
    },
  },
  {
    name: 'webhooks-missing-key-as-400',
    statement:
      'Errors: idempotency_required | 428 | an idempotency key is mandatory for this call | header Idempotency-Key missing (POST /webhooks: yes + key)',
    answer(c, a) {
      if (c.method !== 'POST' || c.path !== P('/webhooks') || !failed(a)) return;
      if (a.json.error.code !== 'idempotency_required') return;
      // The webhook route validates headers as part of its schema and reports a generic 400.
      a.status = 400;
      a.json.error.code = 'invalid_request';
    },
  },
  {
    name: 'earlier-version-replay-unmarked',
    statement:
      'POST /api/public/v1/connections: Sending the same key with the same content returns the same response again, with meta.replayed true and meta.idempotencyKey set',
    answer(c, a) {
      // The 2026-06-12 serializer predates the replay marker.
      if (!isCreate(c) || c.headers['service-version'] !== '2026-06-12' || a.json.meta?.replayed !== true) return;
      delete a.json.meta.replayed;
    },
  },
];
