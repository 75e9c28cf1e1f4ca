import type { ProxyCall, UnseenViolation } from './proxy.ts';
import { home, isCreate, P } from './proxy-helpers.ts';

/**
 * Round 41 of the unseen violations, part 1: answers — a second tenant's refusals without meta.at, a
 * foreign tenant's refusals marked ok, connector counts capped at three, earlier-version checks naming
 * abbreviated environments, a second tenant's calls sharing one request id, alternate key issues with ok
 * as text, a second tenant's creations without a scope label, and connection counts frozen at the first read.
 */
type Rec = Record<string, any>;
const EARLIER = '2026-06-12';
/** A call for a tenant other than the run's own one; call it first in every hook, as it records that tenant. */
const isSecond = (c: ProxyCall) => {
  const first = home(c);
  return Boolean(first && c.headers['x-service-tenant'] && c.headers['x-service-tenant'] !== first);
};
const SHORT: Readonly<Record<string, string>> = {
  development: 'dev',
  sandbox: 'sbx',
  pilot: 'pil',
  production: 'prod',
};

export const ROUND41_ANSWERS: UnseenViolation[] = [
  {
    name: 'second-tenant-refusal-meta-lacks-at',
    statement:
      'Failure envelope (every error response): meta | Meta | yes; Meta: at | string, date-time | yes (a second tenant’s refusals too)',
    answer(c, a) {
      // The second tenant's gateway writes its own refusals and only copies the request id and version.
      const second = isSecond(c);
      if (second && a.status >= 400 && a.json.ok === false && a.json.meta) delete a.json.meta.at;
    },
  },
  {
    name: 'foreign-tenant-refusal-ok-true',
    statement:
      'Failure envelope (every error response): ok | boolean | yes | always false (a refusal for a tenant the access may not act for too)',
    answer(c, a) {
      // The tenant-release check reuses the success writer's envelope and only swaps data for error.
      home(c);
      if (a.status === 403 && a.json.ok === false) a.json.ok = true;
    },
  },
  {
    name: 'connectors-count-capped-at-three',
    statement:
      'GET /api/public/v1/connectors: data: count (integer), connectors (array of Connector) (a list longer than three too)',
    answer(c, a) {
      // count comes from a preview query that stops at three rows ("3+" in the portal), the list from the full one.
      home(c);
      const data = a.json.data as Rec | undefined;
      if (
        c.method === 'GET' &&
        c.path === P('/connectors') &&
        Array.isArray(data?.connectors) &&
        data.connectors.length > 3
      )
        data.count = 3;
    },
  },
  {
    name: 'earlier-version-check-environment-abbreviated',
    statement:
      'POST /api/public/v1/capabilities: data: decision, environment (Environment); Environment: development, sandbox, pilot, production (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The frozen 2026-06-12 handler still writes the short environment codes of the old billing tables.
      home(c);
      const data = a.json.data as Rec | undefined;
      if (c.headers['service-version'] !== EARLIER || c.method !== 'POST' || c.path !== P('/capabilities')) return;
      if (typeof data?.environment === 'string' && SHORT[data.environment]) data.environment = SHORT[data.environment];
    },
  },
  {
    name: 'second-tenant-request-id-constant',
    statement: 'Meta: requestId | string | yes | identifier of this call (a second tenant’s later calls too)',
    answer(c, a) {
      // The second tenant's client pool keeps one trace context per connection and stamps it on every answer.
      const second = isSecond(c);
      if (!second || typeof a.json.meta?.requestId !== 'string') return;
      const first = c.memory.get('r41-second-request-id');
      if (typeof first === 'string') a.json.meta.requestId = first;
      else c.memory.set('r41-second-request-id', a.json.meta.requestId);
    },
  },
  {
    name: 'alt-key-issue-ok-as-string',
    statement:
      'Success envelope (every JSON success response): ok | boolean | yes | always true (a key issued under {alt_base_url} too)',
    answer(c, a) {
      // The alternate region's key service is a PHP micro-service whose JSON encoder writes flags as "true".
      home(c);
      if (c.base === 'alt' && c.method === 'POST' && c.path === P('/idempotency-keys') && a.json.ok === true)
        (a.json as Rec).ok = 'true';
    },
  },
  {
    name: 'second-tenant-created-scope-label-null',
    statement:
      'Connection: scopeLabel | string | descriptive name; POST /api/public/v1/connections: data: the Connection (a second tenant’s creation too)',
    answer(c, a) {
      // The second tenant's ORM maps the venue name into a joined table that is filled after the answer is built.
      const second = isSecond(c);
      const data = a.json.data as Rec | undefined;
      if (second && isCreate(c) && a.status === 200 && typeof data?.scopeLabel === 'string') data.scopeLabel = null;
    },
  },
  {
    name: 'connections-count-frozen-at-first-read',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection) (a read after later creations too)',
    answer(c, a) {
      // The count is cached per tenant on the first read while the list itself is read live.
      const tenant = c.headers['x-service-tenant'];
      home(c);
      const data = a.json.data as Rec | undefined;
      if (c.method !== 'GET' || c.path !== P('/connections') || typeof data?.count !== 'number' || !tenant) return;
      const key = `r41-count:${c.base}:${tenant}`;
      const first = c.memory.get(key);
      if (typeof first === 'number') data.count = first;
      else c.memory.set(key, data.count);
    },
  },
];
