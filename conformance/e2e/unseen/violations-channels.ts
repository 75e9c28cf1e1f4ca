import { randomUUID } from 'node:crypto';
import { BASE_PATH, SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import { signWebhook } from '../../../simulator/contract/webhook-signature.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/** Unseen violations of streams, deliveries, tenants, the audit log, CORS and the alternate base URL. */
const resumePoint = (c: ProxyCall) => Number(c.search.get('cursor') ?? c.headers['last-event-id'] ?? Number.NaN);
const answer = (status: number, headers: Record<string, string>): ProxyAnswer => ({ status, headers, json: {} });

export const CHANNEL_VIOLATIONS: UnseenViolation[] = [
  {
    name: 'cursor-repeats-last-read',
    statement: 'Status stream: resumes without gaps by sending cursor (last number read)',
    request(c) {
      const cursor = Number(c.search.get('cursor'));
      if (c.path === P('/stream') && cursor > 0) c.search.set('cursor', String(cursor - 1));
      return undefined;
    },
  },
  {
    name: 'resumed-stream-renumbered',
    statement: 'Status stream: every message carries a consecutive number',
    stream(c, lines) {
      const from = resumePoint(c);
      if (!(from > 0)) return lines;
      return lines.replace(/^id: ?(\d+)$/gm, (_m, n: string) => `id: ${Number(n) - from}`);
    },
  },
  {
    name: 'stream-refusal-as-event-stream',
    statement: 'Failure envelope (every error response), served as JSON',
    answer(c, a) {
      if (c.path === P('/stream') && a.status >= 400) a.headers['content-type'] = 'text/event-stream';
    },
  },
  {
    name: 'cors-preflight-on-connections',
    statement: 'What the service does: called from servers only; credentials are never sent from a browser',
    request(c) {
      if (c.method !== 'OPTIONS' || c.path === BASE_PATH || c.path.endsWith('/openapi.json')) return undefined;
      return answer(204, {
        'access-control-allow-origin': c.headers.origin ?? '*',
        'access-control-allow-methods': 'GET, POST',
        'access-control-allow-headers': 'authorization, x-service-tenant, idempotency-key, content-type',
      });
    },
  },
  {
    name: 'lists-cross-tenants',
    statement: 'What the service does: a tenant creates connections (GET /connections: connections of the tenant)',
    answer(c, a) {
      const tenant = c.headers['x-service-tenant'] ?? '';
      const seen = (c.memory.get('by-tenant') ?? new Map()) as Map<string, unknown[]>;
      c.memory.set('by-tenant', seen);
      if (c.method === 'POST' && c.path === P('/connections') && a.status === 200 && !a.json.meta?.replayed)
        seen.set(tenant, [...(seen.get(tenant) ?? []), a.json.data]);
      if (c.method === 'GET' && c.path === P('/connections') && a.json.data) {
        const foreign = [...seen].filter(([t]) => t !== tenant).flatMap(([, list]) => list.slice(0, 1));
        a.json.data.connections.push(...foreign);
        a.json.data.count += foreign.length;
      }
    },
  },
  {
    name: 'audit-limit-ignored',
    statement: 'GET /audit-log: Query: limit (number of entries)',
    request(c) {
      if (c.path === P('/audit-log') && c.search.has('limit')) c.search.set('limit', '500');
      return undefined;
    },
  },
  {
    name: 'audit-lags-one-change',
    statement: 'GET /audit-log: traceable changes of the tenant',
    answer(c, a) {
      const d = a.json.data;
      if (c.path === P('/audit-log') && Array.isArray(d?.entries) && !c.search.has('after')) d.entries.shift();
    },
  },
  {
    name: 'webhooks-key-not-required',
    statement: 'POST /webhooks: yes + key (Errors: idempotency_required | 428 when the key is missing)',
    request(c) {
      if (c.method === 'POST' && c.path === P('/webhooks') && !c.headers['idempotency-key'])
        c.headers['idempotency-key'] = `proxy-${randomUUID()}`;
      return undefined;
    },
  },
  {
    name: 'connectors-combined-filters-drop-capability',
    statement: 'GET /connectors: capability, providerId, category restrict the list (together too)',
    request(c) {
      if (c.path === P('/connectors') && c.search.has('capability') && [...c.search.keys()].length > 1)
        c.search.delete('capability');
      return undefined;
    },
  },
  {
    name: 'alt-without-rate-limit-headers',
    statement: 'Limits: response headers X-RateLimit-Limit, X-RateLimit-Remaining (the same interface at alt_base_url)',
    answer(c, a) {
      if (c.base === 'alt') for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining']) delete a.headers[h];
    },
  },
  {
    name: 'alt-reports-old-version',
    statement: 'Versioning: responses report 2026-07-01 in meta.version (the same interface at alt_base_url)',
    answer(c, a) {
      if (c.base === 'alt' && a.json.meta) a.json.meta.version = SUPPORTED_VERSIONS[1];
    },
  },
  {
    name: 'alt-self-description-shorter',
    statement: 'The same interface is also offered under a second address (self-description: routes)',
    answer(c, a) {
      if (c.base === 'alt' && c.path === BASE_PATH && Array.isArray(a.json.data?.routes))
        a.json.data.routes = a.json.data.routes.filter((r: { path: string }) => !r.path.endsWith('/capabilities'));
    },
  },
  {
    name: 'signature-t-milliseconds',
    statement: 'Webhooks: t=<unix-seconds>',
    sign: (body, secret, t) => signWebhook(body, secret, t * 1000 + 123),
  },
  {
    name: 'signature-names-uppercase',
    statement: 'Webhooks: the header value has the form t=<unix-seconds>,v1=<hex-signature>',
    sign: (body, secret, t) => signWebhook(body, secret, t).replace('t=', 'T=').replace('v1=', 'V1='),
  },
  {
    name: 'redelivery-other-event',
    statement: 'Webhooks: deliveries can be triggered again (the same delivery)',
    deliver(d, resign) {
      if (!d.headers['ncs-attempt'] || !/"id":"[^"]+"/.test(d.body)) return;
      const json = JSON.parse(d.body) as { id: string };
      const seen = redelivered.has(json.id);
      redelivered.add(json.id);
      if (!seen) return;
      d.body = JSON.stringify({ ...json, id: `evt_${randomUUID().slice(0, 12)}` });
      for (const [k, v] of Object.entries(d.headers)) if (/^t=\d+,v1=/.test(v)) d.headers[k] = resign(d.body);
    },
  },
  {
    name: 'creation-without-signing-key',
    statement: 'POST /webhooks: the signing key is issued exactly once in the response',
    answer(c, a) {
      if (c.method === 'POST' && c.path === P('/webhooks') && a.json.data) delete a.json.data.signingSecret;
    },
  },
  {
    name: 'rate-limit-limit-wobbles',
    statement: 'Limits: X-RateLimit-Limit (limit for the current window; configured per access, tenant, environment)',
    answer(c, a) {
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (!limit) return;
      const n = Number(c.memory.get('calls') ?? 0) + 1;
      c.memory.set('calls', n);
      a.headers['x-ratelimit-limit'] = String(limit + (n % 3) * 7);
    },
  },
  {
    name: 'foreign-tenant-as-404',
    statement: 'Errors: forbidden | 403 | tenant not released',
    answer(_c, a) {
      if (a.status === 403 && a.json.error) {
        a.status = 404;
        a.json.error.code = 'not_found';
      }
    },
  },
  {
    name: 'webhooks-key-pattern-unchecked',
    statement: 'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (on every modifying call)',
    request(c) {
      const key = c.headers['idempotency-key'];
      if (c.method === 'POST' && c.path === P('/webhooks') && key && !/^[A-Za-z0-9._:-]{8,128}$/.test(key))
        c.headers['idempotency-key'] = `proxy-${Buffer.from(key).toString('hex').slice(0, 100)}`;
      return undefined;
    },
  },
  {
    name: 'rate-limited-request-id-empty',
    statement: 'Errors: they contain the request identifier (meta.requestId)',
    answer(_c, a) {
      if (a.status === 429 && a.json.meta) a.json.meta.requestId = '';
    },
  },
];

/** Event ids delivered once already (module state is fine: ids are unique per simulator). */
const redelivered = new Set<string>();
