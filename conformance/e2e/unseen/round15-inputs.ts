import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P, refuse } from './proxy-helpers.ts';

/**
 * Round 15 of the unseen violations, part 3: what the deployment does with what it is sent — a
 * capability filter that reads only a connector's first capability or narrows its list to the match,
 * beta connectors hidden from the unfiltered list only, the idempotency lookup run before validation,
 * a stricter label rule in production, keys with ".." refused as path traversal, the alternate
 * address replaying where it must refuse, and a creation for a tenant the access is not released for
 * written (under the access's own tenant) before the 403.
 */
type Rec = Record<string, any>;
const ok = (a: ProxyAnswer) => a.status === 200 && a.json.ok === true;
const isConnectors = (c: ProxyCall) => c.method === 'GET' && c.path === P('/connectors');
const FIELDS = ['connectorId', 'environment', 'scopeLabel', 'capabilities'] as const;
/** The creation's contract fields in a fixed order: what a fingerprint of "the content" covers. */
const known = (b: unknown) => JSON.stringify(FIELDS.map((f) => (b as Rec | undefined)?.[f]));
const storeKey = (c: ProxyCall) => `r15-first:${c.headers['x-service-tenant']}:${c.headers['idempotency-key']}`;
/** Remembers the body of a key's first successful creation. */
const rememberFirst = (c: ProxyCall, a: ProxyAnswer) => {
  if (
    isCreate(c) &&
    ok(a) &&
    a.json.meta?.replayed !== true &&
    c.headers['idempotency-key'] &&
    !c.memory.has(storeKey(c))
  )
    c.memory.set(storeKey(c), c.body);
};
/** Calls a violation changed on their way in (the answer hook finishes the story). */
const changed = new WeakSet<ProxyCall>();

export const ROUND15_INPUTS: UnseenViolation[] = [
  {
    name: 'capability-filter-reads-first-entry',
    statement:
      'GET /api/public/v1/connectors: Query parameter capability | string | no (restricts the list to connectors offering it — whatever its place in their list)',
    answer(c, a) {
      // The filter was written against a JSON column as capabilities->>0 instead of a containment test.
      const want = c.search.get('capability');
      if (!isConnectors(c) || !ok(a) || want === null || !Array.isArray(a.json.data?.connectors)) return;
      a.json.data.connectors = (a.json.data.connectors as Rec[]).filter(
        (x) => Array.isArray(x.capabilities) && x.capabilities[0] === want,
      );
      a.json.data.count = a.json.data.connectors.length;
    },
  },
  {
    name: 'capability-filter-narrows-capabilities',
    statement:
      "Connector: capabilities | array of string — the connector's capabilities, in a list filtered by capability too",
    answer(c, a) {
      // The filtered query joins connector_capabilities and aggregates only the joined (matching) rows.
      const want = c.search.get('capability');
      if (!isConnectors(c) || !ok(a) || want === null) return;
      for (const x of (a.json.data?.connectors ?? []) as Rec[])
        if (Array.isArray(x.capabilities)) x.capabilities = [want];
    },
  },
  {
    name: 'unfiltered-connectors-hide-beta',
    statement:
      'GET /api/public/v1/connectors: list connectors (the catalog: capability, providerId and category only restrict it)',
    answer(c, a) {
      // The default listing applies the marketing "general availability only" scope; filtered queries bypass it.
      if (!isConnectors(c) || !ok(a) || [...c.search.keys()].length > 0 || !Array.isArray(a.json.data?.connectors))
        return;
      a.json.data.connectors = (a.json.data.connectors as Rec[]).filter((x) => x.status !== 'beta');
      a.json.data.count = a.json.data.connectors.length;
    },
  },
  {
    name: 'replay-precedes-validation',
    statement:
      'POST /api/public/v1/connections: the field list above is the schema; the same key with different content yields idempotency_conflict (only the same content returns the same response again)',
    request(c) {
      // The idempotency middleware runs before validation and fingerprints only the fields it knows.
      const first = c.memory.get(storeKey(c));
      const body = c.body as Rec | undefined;
      if (!isCreate(c) || first === undefined || !body || typeof body !== 'object' || Array.isArray(body))
        return undefined;
      const extra = Object.keys(body).filter((k) => !(FIELDS as readonly string[]).includes(k));
      if (extra.length && known(body) === known(first))
        c.body = Object.fromEntries(FIELDS.filter((f) => f in body).map((f) => [f, body[f]]));
      return undefined;
    },
    answer: rememberFirst,
  },
  {
    name: 'production-scope-label-min-three',
    statement: 'Limits: scopeLabel | length 2 to 120 (in every environment of the enumeration)',
    request(c) {
      // The production profile loads a stricter validator ("labels of real venues have at least three characters").
      const body = c.body as Rec | undefined;
      if (!isCreate(c) || body?.environment !== 'production' || typeof body.scopeLabel !== 'string') return undefined;
      if ([...body.scopeLabel].length >= 3) return undefined;
      c.body = { ...body, scopeLabel: 'x' };
      changed.add(c);
      return undefined;
    },
    answer(c, a) {
      if (changed.has(c) && a.status === 400 && a.json.error)
        a.json.error.detail = 'body field scopeLabel must be at least 3 characters long in production.';
    },
  },
  {
    name: 'key-with-double-dot-refused',
    statement:
      'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters of letters, digits, dot, underscore, colon, hyphen — two dots in a row too)',
    request(c) {
      // Keys name files in the key store, and a path-traversal guard refuses any key containing "..".
      const key = c.headers['idempotency-key'];
      if (!key?.includes('..')) return undefined;
      c.headers['idempotency-key'] = 'bad key';
      changed.add(c);
      return undefined;
    },
    answer(c, a) {
      if (changed.has(c) && a.status === 400 && a.json.error)
        a.json.error.detail = 'header Idempotency-Key must not contain "..".';
    },
  },
  {
    name: 'alt-conflict-answered-as-replay',
    statement:
      'POST /api/public/v1/connections: The same key with different content yields idempotency_conflict (The same interface is also offered under {alt_base_url})',
    request(c) {
      // The alternate address still runs the first idempotency middleware, which looks keys up without comparing content.
      const first = c.memory.get(storeKey(c));
      if (c.base !== 'alt' || !isCreate(c) || first === undefined) return undefined;
      if (JSON.stringify(c.body) !== JSON.stringify(first)) c.body = first;
      return undefined;
    },
    answer: rememberFirst,
  },
  {
    name: 'foreign-creation-written-before-refusal',
    statement:
      'Errors: forbidden | 403 | access may not perform the action | tenant not released (a refused call has no effect)',
    request(c) {
      // The tenant guard runs as an after-filter; the handler already wrote under the access's default tenant.
      const own = home(c);
      const tenant = c.headers['x-service-tenant'];
      const refused = c.memory.get('r15-refused-tenants') as Set<string> | undefined;
      if (!isCreate(c) || !own || !tenant || tenant === own || !refused?.has(tenant)) return undefined;
      c.headers['x-service-tenant'] = own;
      changed.add(c);
      return undefined;
    },
    answer(c, a) {
      const tenant = c.headers['x-service-tenant'];
      if (a.status === 403 && a.json.error?.code === 'forbidden' && tenant) {
        const refused = (c.memory.get('r15-refused-tenants') as Set<string> | undefined) ?? new Set<string>();
        refused.add(tenant);
        c.memory.set('r15-refused-tenants', refused);
      }
      if (changed.has(c) && a.status === 200)
        refuse(a, 403, 'forbidden', 'The access may not perform the action.', 'Tenant not released for this access.');
    },
  },
];
