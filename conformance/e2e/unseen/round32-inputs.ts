import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P, refuse } from './proxy-helpers.ts';

/**
 * Round 32 of the unseen violations, part 2: inputs — long keys refused on webhook registration, a
 * malformed Last-Event-ID failing internally, pilot checks refused under the alternate address,
 * connector ids matched without regard to letter case, and writes under the alternate address answered
 * 202.
 */
type Rec = Record<string, any>;
const body = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Rec) : undefined);
/**
 * A refusal made by the service itself: the request is spoilt so the service answers 400 (with its own
 * headers and meta, and no side effect), and the answer then carries the deployment's words.
 */
const spoilt = new WeakSet<ProxyCall>();
const spoil = (c: ProxyCall, _mark: string, edit: () => void) => {
  edit();
  spoilt.add(c);
  return undefined;
};
const reword = (c: ProxyCall, a: ProxyAnswer, _mark: string, message: string) => {
  if (spoilt.has(c) && a.status === 400) refuse(a, 400, 'invalid_request', message);
};
/** The stream is public and not JSON: its refusal is built here. */
const internal = (): ProxyAnswer => {
  const requestId = `req_r32${Math.random().toString(36).slice(2, 12)}`;
  return {
    status: 500,
    headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
    json: {
      ok: false,
      error: { code: 'internal', message: 'A fault on the service side.' },
      meta: { requestId, version: '2026-07-01', at: new Date().toISOString() },
    },
  };
};

export const ROUND32_INPUTS: UnseenViolation[] = [
  {
    name: 'webhooks-long-key-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (on POST /api/public/v1/webhooks too: keys of 65 to 128 characters are valid)',
    request(c) {
      // The webhook service validates keys against its own, older 64-character limit.
      const key = c.headers['idempotency-key'];
      if (c.method !== 'POST' || c.path !== P('/webhooks') || !key) return undefined;
      if (key.length <= 64 || !/^[A-Za-z0-9._:-]{8,128}$/.test(key)) return undefined;
      return spoil(c, 'key64', () => {
        c.headers['idempotency-key'] = '!';
      });
    },
    answer: (c, a) => reword(c, a, 'key64', 'Idempotency-Key: at most 64 characters.'),
  },
  {
    name: 'malformed-last-event-id-500',
    statement:
      'Errors: invalid_request | 400 | wrong data type (GET /stream: Last-Event-ID — last number read), internal is for faults on the service side',
    request(c) {
      // Number() of the header feeds an array index; a non-numeric value throws.
      const id = c.headers['last-event-id'];
      if (c.method !== 'GET' || c.path !== P('/stream') || id === undefined || /^\d+$/.test(id.trim()))
        return undefined;
      return internal();
    },
  },
  {
    name: 'alt-pilot-check-refused',
    statement:
      'POST /api/public/v1/capabilities: environment | string | no | Environment (development, sandbox, pilot, production) — under {alt_base_url} too',
    request(c) {
      // The alternate domain's deployment was built from a branch whose enumeration lacks pilot.
      const b = body(c);
      if (c.base !== 'alt' || c.method !== 'POST' || c.path !== P('/capabilities') || b?.environment !== 'pilot')
        return undefined;
      return spoil(c, 'altpilot', () => {
        c.body = { ...b, environment: 'pilot-x' };
      });
    },
    answer: (c, a) => reword(c, a, 'altpilot', 'environment: expected development, sandbox or production.'),
  },
  {
    name: 'check-connector-id-matched-case-insensitively',
    statement:
      'Errors: not_found | 404 | the entry does not exist | wrong identifier (a connector id in other letter case is not the connector)',
    request(c) {
      // The catalog lookup lower-cases the id; the decision then names the stored id.
      const b = body(c);
      if (c.method !== 'POST' || c.path !== P('/capabilities') || typeof b?.connectorId !== 'string') return undefined;
      const lower = b.connectorId.toLowerCase();
      if (lower !== b.connectorId && /^[a-z0-9-]+$/.test(lower)) c.body = { ...b, connectorId: lower };
      return undefined;
    },
  },
  {
    name: 'alt-writes-answered-202',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope (under the second address {alt_base_url} too, for modifying calls)',
    answer(c, a) {
      // The alternate domain's edge forwards writes to the primary region and reports them as accepted.
      if (c.base === 'alt' && c.method === 'POST' && a.status === 200) a.status = 202;
    },
  },
];
