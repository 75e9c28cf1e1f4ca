import { randomUUID } from 'node:crypto';
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, LISTS, P } from './proxy-helpers.ts';

/**
 * Round 4 of the unseen violations, part 2: answers that are wrong only for some values (zero, a
 * critical capability, text outside ASCII, an unknown filter value), for some callers (another tenant,
 * an earlier or unknown Service-Version) or for some calls (every fifth, every seventh).
 */
const tick = (c: ProxyCall, counter: string) => {
  const n = Number(c.memory.get(counter) ?? 0) + 1;
  c.memory.set(counter, n);
  return n;
};
const EARLIER = SUPPORTED_VERSIONS[1];

export const ROUND4_ANSWERS: UnseenViolation[] = [
  {
    name: 'count-string-when-zero',
    statement: 'GET lists: data: count (integer), also when nothing matches',
    answer(c, a) {
      if (c.method === 'GET' && LISTS[c.path] && a.json.data?.count === 0) a.json.data.count = '0';
    },
  },
  {
    name: 'decision-reason-empty',
    statement: 'What the service does: a capability check returns a decision (allowed or not) with a reason',
    answer(c, a) {
      const d = a.json.data?.decision;
      if (c.method === 'POST' && c.path === P('/capabilities') && d) d.reason = '';
    },
  },
  {
    name: 'critical-decision-reason-missing',
    statement: 'CapabilityDecision (all fields required): reason, for critical capabilities too',
    answer(c, a) {
      const d = a.json.data?.decision;
      if (c.method === 'POST' && c.path === P('/capabilities') && d?.critical === true) delete d.reason;
    },
  },
  {
    name: 'unknown-version-echoed',
    statement: 'Versioning: responses report the version in meta.version (a published identifier)',
    answer(c, a) {
      const asked = c.headers['service-version'];
      if (asked && !(SUPPORTED_VERSIONS as readonly string[]).includes(asked) && a.json.meta)
        a.json.meta.version = asked;
    },
  },
  {
    name: 'self-description-version-stale',
    statement: 'GET /api/public/v1: data: version (the interface version, 2026-07-01, as in meta.version)',
    answer(c, a) {
      if (c.method === 'GET' && c.path === BASE_PATH && a.status === 200 && a.json.data) a.json.data.version = EARLIER;
    },
  },
  {
    name: 'earlier-version-no-rate-limit-headers',
    statement: 'Limits: response headers X-RateLimit-Limit, X-RateLimit-Remaining (under every published version)',
    answer(c, a) {
      if (c.headers['service-version'] === EARLIER)
        for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining']) delete a.headers[h];
    },
  },
  {
    name: 'self-description-needs-auth-under-earlier-version',
    statement:
      'Authentication: public endpoints (no authentication): GET /api/public/v1, GET /api/public/v1/openapi.json',
    request(c): ProxyAnswer | undefined {
      const publicRead = c.path === BASE_PATH || c.path === P('/openapi.json');
      if (c.method !== 'GET' || !publicRead || c.headers['service-version'] !== EARLIER || c.headers.authorization)
        return undefined;
      const requestId = `req_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
      return {
        status: 401,
        headers: { 'content-type': 'application/json; charset=utf-8', 'x-request-id': requestId },
        json: {
          ok: false,
          error: { code: 'unauthorized', message: 'Sign in: this version of the interface needs a token' },
          meta: { requestId, version: EARLIER, at: new Date().toISOString() },
        },
      };
    },
  },
  {
    name: 'other-tenant-named-as-home',
    statement: 'GET /connections: data: tenant (the tenant of the call, for every tenant of the access)',
    answer(c, a) {
      const own = home(c);
      if (c.method === 'GET' && c.path === P('/connections') && own && a.json.data?.tenant !== undefined)
        a.json.data.tenant = own;
    },
  },
  {
    name: 'unknown-category-returns-all',
    statement: 'GET /providers: category restricts to one category (one nobody has: none)',
    answer(c, a) {
      const list = LISTS[c.path];
      if (c.method !== 'GET' || (c.path !== P('/providers') && c.path !== P('/connectors')) || !list) return;
      const entries = a.json.data?.[list];
      if (!Array.isArray(entries)) return;
      if ([...c.search.keys()].length === 0) return void c.memory.set(`all:${list}`, entries);
      const all = c.memory.get(`all:${list}`) as unknown[] | undefined;
      if (c.search.has('category') && entries.length === 0 && all?.length) {
        a.json.data[list] = all;
        a.json.data.count = all.length;
      }
    },
  },
  {
    name: 'every-fifth-creation-lost',
    statement: 'GET /connections: connections of the tenant (every connection it created)',
    answer(c, a) {
      if (isCreate(c) && a.status === 200 && a.json.meta?.replayed !== true && a.json.data?.id)
        if (tick(c, 'creations') % 5 === 0) c.memory.set(`lost:${a.json.data.id}`, true);
      const d = a.json.data;
      if (c.method === 'GET' && c.path === P('/connections') && Array.isArray(d?.connections)) {
        d.connections = d.connections.filter((x: { id: string }) => !c.memory.has(`lost:${x.id}`));
        d.count = d.connections.length;
      }
    },
  },
  {
    name: 'connections-list-truncated',
    statement: 'GET /connections: connections of the tenant (all of them: no paging is shown)',
    answer(c, a) {
      const d = a.json.data;
      if (
        c.method === 'GET' &&
        c.path === P('/connections') &&
        Array.isArray(d?.connections) &&
        d.connections.length > 6
      ) {
        d.connections = d.connections.slice(0, 6);
        d.count = 6;
      }
    },
  },
  {
    name: 'request-id-repeats-every-seventh',
    statement: 'Meta: requestId | identifier of this call',
    answer(c, a) {
      const meta = a.json.meta;
      if (typeof meta?.requestId !== 'string') return;
      const previous = c.memory.get('last-request-id') as string | undefined;
      if (tick(c, 'answers') % 7 === 0 && previous) {
        meta.requestId = previous;
        if (a.headers['x-request-id']) a.headers['x-request-id'] = previous;
      }
      c.memory.set('last-request-id', meta.requestId);
    },
  },
  {
    name: 'unicode-label-decomposed',
    statement: 'POST /connections: data: the Connection (scopeLabel as sent, text outside ASCII too)',
    answer(c, a) {
      const label = a.json.data?.scopeLabel;
      if (isCreate(c) && typeof label === 'string' && /[^ -~\s]/.test(label))
        a.json.data.scopeLabel = label.normalize('NFD');
    },
  },
  {
    name: 'unicode-refusal-without-version',
    statement: 'Failure envelope: meta | Meta | yes (meta.version required), whatever the request held',
    answer(c, a) {
      if (a.status >= 400 && a.json.meta && /[^ -~\s]/.test(JSON.stringify(c.body ?? ''))) delete a.json.meta.version;
    },
  },
];
