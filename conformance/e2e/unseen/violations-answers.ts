import { SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { isCreate, P } from './proxy-helpers.ts';

/** Unseen violations in JSON answers, each only under some condition (a path, a status, a request field). */
const sent = (c: ProxyCall) => (c.body && typeof c.body === 'object' ? (c.body as Record<string, unknown>) : {});
const errorCode = (a: ProxyAnswer) => a.json.error?.code as string | undefined;

export const ANSWER_VIOLATIONS: UnseenViolation[] = [
  {
    name: 'count-string-when-filtered',
    statement: 'GET /connectors: data: count (integer)',
    answer(c, a) {
      if (c.path === P('/connectors') && [...c.search.keys()].length && a.json.data)
        a.json.data.count = String(a.json.data.count);
    },
  },
  {
    name: 'replay-answered-201',
    statement: 'Endpoints: Success responses use status 200',
    answer(c, a) {
      if (isCreate(c) && a.json.meta?.replayed === true) a.status = 201;
    },
  },
  {
    name: 'replayed-on-first-call',
    statement: 'Meta: replayed: true when the response comes from an earlier identical operation',
    answer(c, a) {
      if (isCreate(c) && a.status === 200) a.json.meta.replayed = true;
    },
  },
  {
    name: 'conflict-as-422',
    statement: 'Errors: idempotency_conflict | 409',
    answer(_c, a) {
      if (errorCode(a) === 'idempotency_conflict') a.status = 422;
    },
  },
  {
    name: 'idempotency-required-empty-body',
    statement: 'Failure envelope (every error response)',
    answer(_c, a) {
      if (errorCode(a) === 'idempotency_required') a.raw = '';
    },
  },
  {
    name: 'not-found-without-meta',
    statement: 'Failure envelope: meta | Meta | yes',
    answer(_c, a) {
      if (a.status === 404) delete a.json.meta;
    },
  },
  {
    name: 'key-endpoint-codes-uppercase',
    statement: 'Failure envelope: error.code: one of the codes in the Errors part',
    answer(c, a) {
      if (c.path === P('/idempotency-keys') && a.json.error)
        a.json.error.code = String(a.json.error.code).toUpperCase();
    },
  },
  {
    name: 'ok-string-on-401',
    statement: 'Failure envelope: ok | boolean | always false',
    answer(_c, a) {
      if (a.status === 401) a.json.ok = 'false';
    },
  },
  {
    name: 'openapi-3-0',
    statement: 'GET /api/public/v1/openapi.json: the machine-readable description (OpenAPI 3.1)',
    answer(c, a) {
      if (c.path === P('/openapi.json')) a.json.openapi = '3.0.3';
    },
  },
  {
    name: 'listed-capability-critical-string',
    statement: 'Connection: capabilities: each entry: critical (boolean)',
    answer(c, a) {
      if (c.method !== 'GET' || c.path !== P('/connections')) return;
      for (const con of (a.json.data?.connections ?? []).slice(1))
        for (const cap of con.capabilities ?? []) cap.critical = String(cap.critical);
    },
  },
  {
    name: 'listed-environment-production',
    statement: 'Connection: a connection binds a connector to an environment (the one it was created for)',
    answer(c, a) {
      if (c.method === 'GET' && c.path === P('/connections'))
        for (const con of a.json.data?.connections ?? []) con.environment = 'production';
    },
  },
  {
    name: 'pilot-judged-as-sandbox',
    statement: 'POST /capabilities: data: decision, environment (Environment) — the one asked for',
    answer(c, a) {
      if (c.path === P('/capabilities') && c.method === 'POST' && sent(c).environment === 'pilot' && a.json.data)
        a.json.data.environment = 'sandbox';
    },
  },
  {
    name: 'development-created-as-sandbox',
    statement: 'POST /connections: data: the Connection (environment as sent)',
    answer(c, a) {
      if (isCreate(c) && sent(c).environment === 'development' && a.json.data) a.json.data.environment = 'sandbox';
    },
  },
  {
    name: 'capabilities-trailing-comma',
    statement: 'Success envelope (every JSON success response)',
    answer(c, a) {
      if (c.method === 'GET' && c.path === P('/capabilities')) a.raw = `${JSON.stringify(a.json).slice(0, -1)},}`;
    },
  },
  {
    name: 'token-prefix-in-hint',
    statement: 'Errors: no tokens or raw data are to be sent along',
    answer(c, a) {
      const token = /^Bearer (.+)$/i.exec(c.headers.authorization ?? '')?.[1];
      if (token && a.json.error)
        a.json.error.hint = `Check the token ${token.slice(0, Math.ceil(token.length * 0.75))}…`;
    },
  },
  {
    name: 'connections-count-plus-one',
    statement: 'GET /connections: data: count (integer) of connections',
    answer(c, a) {
      if (c.method === 'GET' && c.path === P('/connections') && a.json.data) a.json.data.count += 1;
    },
  },
  {
    name: 'posts-report-old-version',
    statement: 'Versioning: the current version 2026-07-01; responses report it in meta.version',
    answer(c, a) {
      if (c.method === 'POST' && c.headers['service-version'] === SUPPORTED_VERSIONS[0] && a.json.meta)
        a.json.meta.version = SUPPORTED_VERSIONS[1];
    },
  },
  {
    name: 'rate-limited-code-renamed',
    statement: 'Errors: rate_limited | 429',
    answer(_c, a) {
      if (a.status === 429 && a.json.error) a.json.error.code = 'too_many_requests';
    },
  },
  {
    name: 'retry-after-http-date',
    statement: 'Limits: Retry-After (recommended wait in seconds)',
    answer(_c, a) {
      if (a.status === 429) a.headers['retry-after'] = new Date(Date.now() + 30_000).toUTCString();
    },
  },
  {
    name: 'remaining-above-limit',
    statement: 'Limits: X-RateLimit-Remaining (calls left in the window of X-RateLimit-Limit)',
    answer(c, a) {
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (c.path === P('/connectors') && limit) a.headers['x-ratelimit-remaining'] = String(limit + 5);
    },
  },
  {
    name: 'replay-served-as-text',
    statement: 'Success envelope (every JSON success response): the same response again',
    answer(c, a) {
      if (a.json.meta?.replayed === true) a.headers['content-type'] = 'text/plain; charset=utf-8';
    },
  },
  {
    name: 'malformed-cursor-500',
    statement: 'Errors: a wrong data type is invalid_request | 400 (cursor: integer, minimum 0)',
    answer(c, a) {
      if (c.path === P('/stream') && a.status === 400 && a.json.error) {
        a.status = 500;
        a.json.error.code = 'internal';
      }
    },
  },
];
