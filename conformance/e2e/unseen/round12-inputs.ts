import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';
import { bodyOf, failure, sortedText } from './round6-support.ts';

/**
 * Round 12 of the unseen violations, part 2: what a deployment takes in — a numeric operation turned
 * into text, an empty capability list, a key demanded by the key endpoint, a creation without
 * capabilities filled in with all of them, a limiter counted per route, limit headers lost on
 * refusals, and a refused creation that cannot be repeated with its own key.
 */
/** Notes each listed connector's capabilities, so a later request hook can use what it offers. */
const noteOffers = (c: ProxyCall, a: ProxyAnswer) => {
  if (c.method !== 'GET' || c.path !== P('/connectors') || !Array.isArray(a.json.data?.connectors)) return;
  const offers = (c.memory.get('offers') as Map<string, string[]> | undefined) ?? new Map<string, string[]>();
  c.memory.set('offers', offers);
  for (const x of a.json.data.connectors as Record<string, any>[])
    if (typeof x.id === 'string' && Array.isArray(x.capabilities)) offers.set(x.id, x.capabilities);
};
const isKeyIssue = (c: ProxyCall) => c.method === 'POST' && c.path === P('/idempotency-keys');

export const ROUND12_INPUTS: UnseenViolation[] = [
  {
    name: 'key-issue-operation-number-coerced',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80) (Errors: invalid_request — wrong data type)',
    request(c) {
      // The body parser runs with type coercion on, so a number passes as its decimal text.
      const body = bodyOf(c);
      if (isKeyIssue(c) && body && (typeof body.operation === 'number' || typeof body.operation === 'boolean'))
        c.body = { ...body, operation: String(body.operation).padEnd(2, '0') };
      return undefined;
    },
  },
  {
    name: 'empty-capability-list-accepted',
    statement: 'Limits: capabilities in connection creation | 1 to 24 items',
    request(c) {
      // The schema says `maxItems: 24` but the `minItems: 1` was lost in a refactor; the service books a
      // connection without capabilities (here: the deployment asks for an innocuous default, then empties it).
      const body = bodyOf(c);
      if (!isCreate(c) || !body || !Array.isArray(body.capabilities) || body.capabilities.length) return undefined;
      c.memory.set(`empty:${c.headers['idempotency-key'] ?? ''}`, true);
      const offers = c.memory.get('offers') as Map<string, string[]> | undefined;
      c.body = { ...body, capabilities: (offers?.get(String(body.connectorId)) ?? ['orders.read']).slice(0, 1) };
      return undefined;
    },
    answer(c, a) {
      noteOffers(c, a);
      if (!isCreate(c) || !c.memory.get(`empty:${c.headers['idempotency-key'] ?? ''}`)) return;
      if (a.status === 200 && a.json.data) a.json.data.capabilities = [];
    },
  },
  {
    name: 'key-issue-demands-idempotency-key',
    statement:
      'Endpoints: POST /api/public/v1/idempotency-keys | yes | generate an idempotency key (auth only — not "yes + key")',
    request(c) {
      // The key middleware is mounted on every POST, the key endpoint included.
      if (!isKeyIssue(c) || !c.headers.authorization || c.headers['idempotency-key']) return undefined;
      return failure(c, 428, 'idempotency_required', 'An idempotency key is mandatory for this call.');
    },
  },
  {
    name: 'creation-without-capabilities-gets-all',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: … capabilities | array of string | 1 to 24 items',
    request(c) {
      // A "convenience" default books every capability of the connector when the list is left out.
      const body = bodyOf(c);
      if (!isCreate(c) || !body || 'capabilities' in body || typeof body.connectorId !== 'string') return undefined;
      const offers = c.memory.get('offers') as Map<string, string[]> | undefined;
      const all = offers?.get(body.connectorId) ?? ['orders.read'];
      c.body = { ...body, capabilities: all.slice(0, 24) };
      return undefined;
    },
    answer: noteOffers,
  },
  {
    name: 'remaining-counted-per-route',
    statement:
      'Limits: Rate limits are configured per access, per tenant and per environment; X-RateLimit-Remaining (calls left in the window)',
    answer(c, a) {
      // The limiter's bucket key includes the route, so every path has its own window of the same size.
      const limit = a.headers['x-ratelimit-limit'];
      if (limit === undefined || a.headers['x-ratelimit-remaining'] === undefined) return;
      const slot = `route:${c.headers['x-service-tenant'] ?? ''}:${c.base}:${c.method} ${c.path}`;
      const used = ((c.memory.get(slot) as number | undefined) ?? 0) + 1;
      c.memory.set(slot, used);
      a.headers['x-ratelimit-remaining'] = String(Math.max(0, Number(limit) - used));
    },
  },
  {
    name: 'refusals-without-rate-limit-headers',
    statement:
      'Limits: Response headers: X-RateLimit-Limit (limit for the current window), X-RateLimit-Remaining (calls left in the window) (a refused call counts and is answered with them too)',
    answer(c, a) {
      // Validation runs in a middleware placed before the limiter's header writer.
      if (!c.headers.authorization || (a.status !== 400 && a.status !== 404)) return;
      delete a.headers['x-ratelimit-limit'];
      delete a.headers['x-ratelimit-remaining'];
    },
  },
  {
    name: 'refused-creation-repeat-conflicts',
    statement:
      'Modifying calls are repeat-safe through idempotency keys: the same key with the same content returns the same response again (a refusal such as capability_denied or invalid_request too, not idempotency_conflict)',
    answer(c, a) {
      // The key store keeps a "failed" marker without the content hash, so the repeat compares against nothing.
      if (!isCreate(c)) return;
      const key = c.headers['idempotency-key'];
      if (!key) return;
      const slot = `refused:${c.headers['x-service-tenant'] ?? ''}:${key}`;
      const seen = c.memory.get(slot) as string | undefined;
      const text = sortedText(c.body);
      const code = a.json.error?.code;
      const refused =
        a.status >= 400 && a.status < 500 && code !== 'idempotency_conflict' && a.status !== 428 && a.status !== 429;
      if (refused) {
        if (seen === text) {
          a.status = 409;
          a.json.error = { code: 'idempotency_conflict', message: 'Same idempotency key with different content.' };
        } else c.memory.set(slot, text);
      }
    },
  },
];
