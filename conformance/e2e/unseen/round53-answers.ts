import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';
import { isSecond, type Rec } from './round44-common.ts';

/** Round 53, part 1: counts against lists over time, error meta against success meta, replays against later writes, tenants. */
const isCheck = (c: ProxyCall) => c.method === 'POST' && c.path === P('/capabilities');
const isGet = (c: ProxyCall, tail: string) => c.method === 'GET' && c.path === P(tail);
const tenantOf = (c: ProxyCall) => c.headers['x-service-tenant'] ?? '';

export const ROUND53_ANSWERS: UnseenViolation[] = [
  {
    name: 'connections-count-cached-from-first-list-read',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) (a read after creations that followed the first read)',
    answer(c, a) {
      // The count comes from a per-tenant counter cached at the first list read and never invalidated on writes.
      home(c);
      if (!isGet(c, '/connections') || a.status !== 200 || typeof a.json.data?.count !== 'number') return;
      const key = `r53-count:${tenantOf(c)}`;
      const first = c.memory.get(key) as number | undefined;
      if (first === undefined) c.memory.set(key, a.json.data.count);
      else a.json.data.count = first;
    },
  },
  {
    name: 'failure-meta-request-id-of-previous-success',
    statement:
      'Errors: They contain the request identifier (meta.requestId); Meta: requestId | identifier of this call (an error answer following a successful call)',
    answer(c, a) {
      // The error mapper reads the request id from a thread-local that is only set by the success path.
      home(c);
      const id = a.json.meta?.requestId;
      if (a.status === 200 && typeof id === 'string') c.memory.set('r53-last-ok', id);
      else if (a.status >= 400 && a.json.ok === false && a.json.meta && c.memory.has('r53-last-ok')) {
        a.json.meta.requestId = c.memory.get('r53-last-ok');
        a.headers['x-request-id'] = String(c.memory.get('r53-last-ok'));
      }
    },
  },
  {
    name: 'replay-meta-key-of-tenants-latest-creation',
    statement:
      'Meta: idempotencyKey | the key used for the call; POST /connections: with meta.replayed true and meta.idempotencyKey set (a replay sent after another creation with a new key)',
    answer(c, a) {
      // The replay path fills meta from the tenant's "last write" context instead of from the incoming header.
      home(c);
      if (!isCreate(c) || a.status !== 200 || !a.json.meta) return;
      const key = `r53-latest-key:${tenantOf(c)}`;
      if (a.json.meta.replayed !== true) c.memory.set(key, c.headers['idempotency-key']);
      else if (c.memory.has(key)) a.json.meta.idempotencyKey = c.memory.get(key);
    },
  },
  {
    name: 'providers-count-after-connectors-read-counts-connectors',
    statement:
      'GET /api/public/v1/providers: data: count (integer), providers (array of Provider) (a provider read right after a connector read)',
    answer(c, a) {
      // Both catalog handlers share one module-level "total" variable, and the provider handler forgets to reset it.
      home(c);
      if (isGet(c, '/connectors') && a.status === 200) c.memory.set('r53-shared-total', a.json.data?.count);
      else if (isGet(c, '/providers') && a.status === 200 && typeof c.memory.get('r53-shared-total') === 'number') {
        a.json.data.count = c.memory.get('r53-shared-total');
        c.memory.delete('r53-shared-total');
      }
    },
  },
  {
    name: 'unfiltered-connectors-after-category-read-keep-filtered-count',
    statement:
      'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) (an unfiltered read right after a category-filtered one)',
    answer(c, a) {
      // The count query is memoised per path, so the filtered total of the previous read is served with the full list.
      home(c);
      if (!isGet(c, '/connectors') || a.status !== 200 || typeof a.json.data?.count !== 'number') return;
      const prev = c.memory.get('r53-con-count') as number | undefined;
      if (c.search.has('category')) c.memory.set('r53-con-count', a.json.data.count);
      else if (prev !== undefined && c.search.toString() === '') {
        a.json.data.count = prev;
        c.memory.delete('r53-con-count');
      }
    },
  },
  {
    name: 'keyless-refusal-meta-carries-previous-key',
    statement:
      'Meta: idempotencyKey | no | the key used for the call (an idempotency_required refusal after a keyed creation)',
    answer(c, a) {
      // The response builder keeps the key of the previous keyed call in a pooled context object that is not cleared.
      home(c);
      if (!isCreate(c)) return;
      const key = c.headers['idempotency-key'];
      if (key && a.status === 200) c.memory.set('r53-pooled-key', key);
      if (!key && a.status === 428 && a.json.meta && c.memory.has('r53-pooled-key'))
        a.json.meta.idempotencyKey = c.memory.get('r53-pooled-key');
    },
  },
  {
    name: 'provider-filtered-connectors-count-includes-retired',
    statement:
      'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) (a read filtered by providerId)',
    answer(c, a) {
      // The count comes from a search index that still holds two retired connectors of every provider; the list reads the live table.
      home(c);
      if (!isGet(c, '/connectors') || !c.search.has('providerId') || a.status !== 200) return;
      if (typeof a.json.data?.count === 'number') a.json.data.count = (a.json.data.count as number) + 2;
    },
  },
  {
    name: 'second-tenant-check-answered-with-first-tenants-decision',
    statement:
      'POST /api/public/v1/capabilities: check a capability of a connector; CapabilityDecision: capability | string (a second tenant’s check right after the first tenant’s check)',
    answer(c, a) {
      // The decision cache is keyed on the connector only, so the other tenant's last decision is served for any capability.
      const second = isSecond(c);
      if (!isCheck(c) || a.status !== 200 || !a.json.data?.decision) return;
      const cached = c.memory.get('r53-decision') as Rec | undefined;
      if (!second) c.memory.set('r53-decision', structuredClone(a.json.data.decision));
      else if (cached && cached.connectorId === a.json.data.decision.connectorId)
        a.json.data.decision = structuredClone(cached);
    },
  },
];
