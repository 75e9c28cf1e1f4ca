import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';
import { CURRENT, earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 50, part 2: valid requests refused under a condition (a label's letters, a version, a place, a header). */
const bodyOf = (b: unknown) => (b && typeof b === 'object' && !Array.isArray(b) ? (b as Rec) : {});
const isStream = (c: ProxyCall) => c.method === 'GET' && c.path === P('/stream');
/** A whole failure answer for calls refused before the simulator sees them (the stream answers no JSON hook). */
const refusal = (message: string): ProxyAnswer => ({
  status: 400,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  json: {
    ok: false,
    error: { code: 'invalid_request', message },
    meta: { requestId: `req_r50_${Date.now().toString(36)}`, version: CURRENT, at: new Date().toISOString() },
  },
});

export const ROUND50_INPUTS: UnseenViolation[] = [
  {
    name: 'creation-scope-label-with-accents-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 (descriptive name, e.g. the name of the venue, with accented letters)',
    answer(c, a) {
      // The label validator was copied from the slug rules and admits only ASCII letters, digits and blanks.
      home(c);
      const label = bodyOf(c.body).scopeLabel;
      if (isCreate(c) && a.status === 200 && typeof label === 'string' && /[^\x20-\x7e]/.test(label))
        refuse(a, 400, 'invalid_request', 'scopeLabel contains unsupported characters.');
    },
  },
  {
    name: 'second-tenant-creation-scope-label-apostrophe-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 (a venue name with an apostrophe, for the second tenant)',
    answer(c, a) {
      // The second tenant sits behind a WAF profile whose SQL-injection rule blocks any apostrophe in a body.
      const second = isSecond(c);
      const label = bodyOf(c.body).scopeLabel;
      if (second && isCreate(c) && a.status === 200 && typeof label === 'string' && /['’]/.test(label))
        refuse(a, 400, 'invalid_request', 'The request body was rejected.');
    },
  },
  {
    name: 'earlier-version-creation-capabilities-limit-ten',
    statement: 'Limits: capabilities in connection creation | 1 to 24 items (a creation sent for version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 handler is still deployed for pinned clients and kept its old limit of ten capabilities.
      home(c);
      const caps = bodyOf(c.body).capabilities;
      if (isCreate(c) && earlier(c) && a.status === 200 && Array.isArray(caps) && caps.length > 10)
        refuse(a, 400, 'invalid_request', 'capabilities must contain at most 10 items.');
    },
  },
  {
    name: 'key-issue-operation-with-hyphen-refused',
    statement:
      'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80; short name of the operation) (a name with a hyphen)',
    answer(c, a) {
      // Operation names are checked against a dotted-identifier regex that leaves out the hyphen.
      home(c);
      const op = bodyOf(c.body).operation;
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.status === 200)
        if (typeof op === 'string' && op.includes('-'))
          refuse(a, 400, 'invalid_request', 'operation has an invalid format.');
    },
  },
  {
    name: 'second-tenant-webhook-registration-two-events-refused',
    statement:
      'POST /api/public/v1/webhooks: Body: url, events (array of event-name strings) (two events, for the second tenant)',
    answer(c, a) {
      // The second tenant's plan record caps subscriptions at one event, a leftover of a trial tier.
      const second = isSecond(c);
      const events = bodyOf(c.body).events;
      if (second && c.method === 'POST' && c.path === P('/webhooks') && a.status === 200)
        if (Array.isArray(events) && events.length > 1)
          refuse(a, 403, 'forbidden', 'The access may not perform the action.');
    },
  },
  {
    name: 'alt-stream-last-event-id-zero-refused',
    statement:
      'GET /api/public/v1/stream: Last-Event-ID | header | string | last number read (0, under {alt_base_url})',
    request(c) {
      // The alternate address's edge treats a falsy resume header as malformed before parsing it.
      home(c);
      if (c.base === 'alt' && isStream(c) && c.headers['last-event-id']?.trim() === '0')
        return refusal('Last-Event-ID is not valid.');
      return undefined;
    },
  },
  {
    name: 'second-tenant-stream-cursor-refused',
    statement:
      'GET /api/public/v1/stream: cursor | query | integer, minimum 0 | last number read (a reader naming the second tenant)',
    request(c) {
      // The second tenant's stream goes through a newer gateway route that declares no query parameters.
      const second = isSecond(c);
      if (second && isStream(c) && c.search.has('cursor')) return refusal('Unknown query parameter cursor.');
      return undefined;
    },
  },
];
