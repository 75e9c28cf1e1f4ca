import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, LISTS, P, refuse } from './proxy-helpers.ts';
import { earlier, isSecond, type Rec } from './round44-common.ts';

/** Round 48, part 2: valid requests refused under an Accept form, a label's characters, an environment, or call order. */
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});
const labelOf = (c: ProxyCall) => String(bodyOf(c.body).scopeLabel ?? '');
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const notAcceptable = (a: Parameters<typeof refuse>[0]) =>
  refuse(a, 406, 'not_acceptable', 'The requested representation is not available.');

export const ROUND48_INPUTS: UnseenViolation[] = [
  {
    name: 'accept-list-of-types-answered-406',
    statement:
      'Endpoints: Success responses use status 200; may answer with 400, 401, 403, 404, 409, 428, 429, 500 (a read whose Accept lists several types)',
    answer(c, a) {
      // The negotiation compares the whole Accept value with application/json, so a list of types matches nothing.
      home(c);
      const accept = c.headers.accept ?? '';
      if (c.method === 'GET' && accept.includes(',') && accept.includes('application/json') && a.status === 200)
        notAcceptable(a);
    },
  },
  {
    name: 'alt-accept-star-answered-406',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope (an authenticated read with Accept: */* under {alt_base_url})',
    answer(c, a) {
      // The alternate gateway's content filter only lets explicit application/json through.
      home(c);
      const accept = c.headers.accept ?? '';
      if (c.base === 'alt' && c.method === 'GET' && LISTS[c.path] && accept.includes('*/*') && a.status === 200)
        notAcceptable(a);
    },
  },
  {
    name: 'second-tenant-scope-label-over-40-refused',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 (a label of 41 to 120 characters, for the second tenant)',
    answer(c, a) {
      // The second tenant lives on an older database cluster whose column is still varchar(40).
      const second = isSecond(c);
      if (second && isCreate(c) && labelOf(c).length > 40 && a.status === 200)
        refuse(a, 400, 'invalid_request', 'scopeLabel is too long.');
    },
  },
  {
    name: 'production-created-scope-label-prefixed',
    statement:
      'POST /api/public/v1/connections: data: the Connection; Connection: scopeLabel | descriptive name (a production creation)',
    answer(c, a) {
      // The production write path tags the label for the operations dashboard and returns the tagged row.
      home(c);
      const d = a.json.data as Rec | undefined;
      if (isCreate(c) && bodyOf(c.body).environment === 'production' && typeof d?.scopeLabel === 'string')
        d.scopeLabel = `[prod] ${d.scopeLabel}`;
    },
  },
  {
    name: 'check-right-after-connections-read-refused',
    statement:
      'POST /api/public/v1/capabilities: Body (JSON): connectorId, capability (a valid check sent right after a connections read)',
    answer(c, a) {
      // A pooled body parser keeps the empty body of the previous GET and the check reads no fields.
      home(c);
      const previous = c.memory.get('r48-last-call');
      c.memory.set('r48-last-call', `${c.method} ${c.path}`);
      if (isCheck(c) && previous === `GET ${P('/connections')}` && a.status === 200)
        refuse(a, 400, 'invalid_request', 'connectorId is required.');
    },
  },
  {
    name: 'pilot-created-at-an-hour-ahead',
    statement:
      'Connection: createdAt | string, date-time (a pilot creation, stamped by a host in local time labelled UTC)',
    answer(c, a) {
      // The pilot cluster's database runs in CET and its timestamp default is read back as UTC.
      home(c);
      const d = a.json.data as Rec | undefined;
      if (!isCreate(c) || bodyOf(c.body).environment !== 'pilot' || typeof d?.createdAt !== 'string') return;
      const t = Date.parse(d.createdAt);
      if (!Number.isNaN(t)) d.createdAt = new Date(t + 3_600_000).toISOString();
    },
  },
  {
    name: 'key-issue-right-after-creation-conflicts',
    statement:
      'POST /api/public/v1/idempotency-keys: data: idempotencyKey, operation, expiresAt (a key asked for right after a creation)',
    answer(c, a) {
      // The key generator is debounced per tenant and treats a request right after a write as a repeat.
      home(c);
      const afterCreation = c.memory.get('r48-prev-create') === true;
      c.memory.set('r48-prev-create', isCreate(c) && a.status === 200);
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && afterCreation && a.status === 200)
        refuse(a, 409, 'idempotency_conflict', 'A key for this operation was issued a moment ago.');
    },
  },
  {
    name: 'earlier-version-conflict-answered-428',
    statement:
      'Errors: idempotency_conflict | 409 | same idempotency key with different content (under Service-Version 2026-06-12)',
    answer(c, a) {
      // The 2026-06-12 adapter maps every idempotency refusal onto the code of the 2026-06-12 security change.
      home(c);
      if (isCreate(c) && earlier(c) && a.status === 409 && a.json.error?.code === 'idempotency_conflict')
        refuse(a, 428, 'idempotency_required', 'An idempotency key is mandatory for this call.');
    },
  },
];
