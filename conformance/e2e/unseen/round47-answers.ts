import type { UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 47, part 1: answers wrong in one place, under one filter or environment, or after several calls. */
const isCheck = (method: string, path: string) => method === 'POST' && path === P('/capabilities');
const bodyOf = (b: unknown) => (b && typeof b === 'object' ? (b as Rec) : {});

export const ROUND47_ANSWERS: UnseenViolation[] = [
  {
    name: 'identical-check-request-id-cached',
    statement: 'Meta: requestId | string | identifier of this call (a second check with the same body)',
    answer(c, a) {
      // The decision cache stores the whole envelope, meta included, keyed by the request body.
      home(c);
      if (!isCheck(c.method, c.path) || a.status !== 200 || !a.json.meta) return;
      const key = `r47-check-${JSON.stringify(c.body)}-${c.headers['x-service-tenant'] ?? ''}`;
      const first = c.memory.get(key) as string | undefined;
      if (first === undefined) c.memory.set(key, a.json.meta.requestId);
      else a.json.meta.requestId = first;
    },
  },
  {
    name: 'key-issue-reports-earlier-version',
    statement:
      'Versioning: The current version identifier is 2026-07-01. Responses report it in meta.version (issued keys)',
    answer(c, a) {
      // The key service was split off before 2026-07-01 and hard-codes its own version constant.
      home(c);
      if (c.method === 'POST' && c.path === P('/idempotency-keys') && a.json.meta) a.json.meta.version = '2026-06-12';
    },
  },
  {
    name: 'category-filtered-connectors-name-uncatalogued-capability',
    statement:
      'What the service does: a catalog of providers, connectors and capabilities; Connector: capabilities (a category-filtered connector list names a capability the catalog lacks)',
    answer(c, a) {
      // The category view is built from a materialised table that still holds a retired capability.
      home(c);
      const list = a.json.data?.connectors;
      if (c.method !== 'GET' || c.path !== P('/connectors') || !c.search.has('category') || !Array.isArray(list))
        return;
      for (const conn of list as Rec[])
        if (Array.isArray(conn?.capabilities)) conn.capabilities.push('orders.legacy-sync');
    },
  },
  {
    name: 'capability-filtered-connector-provider-id-region-suffixed',
    statement:
      'Connector: providerId | string (a capability-filtered connector list names providers the provider list lacks)',
    answer(c, a) {
      // The capability index is sharded by region and stores provider keys with the region appended.
      home(c);
      const list = a.json.data?.connectors;
      if (c.method !== 'GET' || c.path !== P('/connectors') || !c.search.has('capability') || !Array.isArray(list))
        return;
      for (const conn of list as Rec[]) if (typeof conn?.providerId === 'string') conn.providerId += '-eu1';
    },
  },
  {
    name: 'pilot-decision-idempotency-flag-inverted',
    statement:
      'CapabilityDecision: idempotencyRequired | boolean; Capability: idempotencyRequired (a pilot check disagrees with the catalog)',
    answer(c, a) {
      // The pilot policy table stores the flag as "optional", and the mapper negates it.
      home(c);
      const decision = a.json.data?.decision as Rec | undefined;
      if (!isCheck(c.method, c.path) || bodyOf(c.body).environment !== 'pilot' || !decision) return;
      if (typeof decision.idempotencyRequired === 'boolean')
        decision.idempotencyRequired = !decision.idempotencyRequired;
    },
  },
  {
    name: 'replayed-connection-listed-critical-inverted',
    statement:
      'Connection: capabilities | each entry: capability, critical (boolean) (the list entry of a connection whose creation was replayed)',
    answer(c, a) {
      // The replay path re-saves the row through an ORM hook that toggles critical on each save.
      home(c);
      const id = a.json.data?.id;
      if (isCreate(c) && a.json.meta?.replayed === true && typeof id === 'string')
        c.memory.set(`r47-replayed-${id}`, true);
      const list = a.json.data?.connections;
      if (c.method !== 'GET' || c.path !== P('/connections') || !Array.isArray(list)) return;
      for (const conn of list as Rec[])
        if (c.memory.has(`r47-replayed-${conn?.id}`) && Array.isArray(conn.capabilities))
          for (const e of conn.capabilities as Rec[]) if (typeof e?.critical === 'boolean') e.critical = !e.critical;
    },
  },
  {
    name: 'pilot-check-reported-as-production',
    statement: 'POST /api/public/v1/capabilities: data: decision, environment (Environment) (a check for pilot)',
    answer(c, a) {
      // The environment resolver maps pilot onto its production cluster and echoes the cluster's name.
      home(c);
      if (isCheck(c.method, c.path) && bodyOf(c.body).environment === 'pilot' && a.json.data?.environment === 'pilot')
        a.json.data.environment = 'production';
    },
  },
  {
    name: 'rate-limited-retry-after-listed-twice',
    statement: 'Limits: Retry-After (recommended wait in seconds) (a 429 passed through two gateway layers)',
    answer(c, a) {
      // Both the edge and the service add Retry-After; the HTTP stack joins the two into one list.
      home(c);
      const v = a.headers['retry-after'];
      if (a.status === 429 && v !== undefined) a.headers['retry-after'] = `${v}, ${v}`;
    },
  },
  {
    name: 'check-environment-of-previous-check',
    statement:
      'POST /api/public/v1/capabilities: environment | Environment; default sandbox; data: environment (the check after one for another environment)',
    answer(c, a) {
      // The handler keeps the resolved environment in a module variable that a later call overwrites late.
      home(c);
      if (!isCheck(c.method, c.path) || a.status !== 200 || typeof a.json.data?.environment !== 'string') return;
      const previous = c.memory.get('r47-previous-env') as string | undefined;
      c.memory.set('r47-previous-env', a.json.data.environment);
      if (previous) a.json.data.environment = previous;
    },
  },
  {
    name: 'category-filtered-providers-count-of-all',
    statement: 'GET /api/public/v1/providers: data: count (integer), providers (a category-filtered list)',
    answer(c, a) {
      // The count query is built before the category clause is appended to the list query.
      const second = isSecond(c);
      const d = a.json.data as Rec | undefined;
      if (second || c.method !== 'GET' || c.path !== P('/providers') || !Array.isArray(d?.providers)) return;
      if (!c.search.has('category')) c.memory.set('r47-providers-all', d.count);
      else if (typeof c.memory.get('r47-providers-all') === 'number') d.count = c.memory.get('r47-providers-all');
      else d.count = (d.count as number) + 3;
    },
  },
];
