import { BASE_PATH, SUPPORTED_VERSIONS } from '../../../simulator/contract/versions.ts';
import type { UnseenViolation } from './proxy.ts';
import { LISTS, P } from './proxy-helpers.ts';

/**
 * Round 5 of the unseen violations, part 1: envelopes, meta, the published descriptions and the
 * rate-limit headers, each wrong only under some condition (a read after a write, an empty list, a
 * conflict, one document or format, the alternate base URL).
 */
const KEY_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';

/** Every object of a JSON document, depth first (the OpenAPI document is a tree of plain JSON). */
function* objects(v: unknown): Generator<Record<string, unknown>> {
  if (Array.isArray(v)) for (const x of v) yield* objects(x);
  else if (v && typeof v === 'object') {
    yield v as Record<string, unknown>;
    for (const x of Object.values(v)) yield* objects(x);
  }
}

export const ROUND5_ANSWERS: UnseenViolation[] = [
  {
    name: 'idempotency-key-sticks-to-later-reads',
    statement: 'Meta: idempotencyKey | the key used for the call (a read that sent none used none)',
    answer(c, a) {
      // A request context reused per tenant: the last write's key is reported on every later read.
      const tenant = c.headers['x-service-tenant'];
      const key = c.headers['idempotency-key'];
      if (!tenant) return;
      if (c.method === 'POST' && key && a.status === 200) c.memory.set(`last-key:${tenant}`, key);
      const last = c.memory.get(`last-key:${tenant}`);
      if (c.method === 'GET' && !key && a.json.meta && a.json.meta.idempotencyKey === undefined && last)
        a.json.meta.idempotencyKey = last;
    },
  },
  {
    name: 'empty-list-as-null',
    statement: 'GET lists: data: providers / connectors / connections (array of ...), an empty one too',
    answer(c, a) {
      // A language whose empty slice serialises as null.
      const list = LISTS[c.path];
      if (c.method === 'GET' && list && Array.isArray(a.json.data?.[list]) && a.json.data[list].length === 0)
        a.json.data[list] = null;
    },
  },
  {
    name: 'no-connections-answered-204',
    statement: 'Endpoints: success responses use status 200 and the success envelope (an empty list too)',
    answer(c, a) {
      const list = a.json.data?.connections;
      if (c.method === 'GET' && c.path === P('/connections') && Array.isArray(list) && list.length === 0) {
        a.status = 204;
        a.raw = '';
        delete a.headers['content-type'];
      }
    },
  },
  {
    name: 'conflict-marked-replayed',
    statement: 'Meta: replayed | true when the response comes from an earlier identical operation (a conflict is none)',
    answer(_c, a) {
      if (a.json.error?.code === 'idempotency_conflict' && a.json.meta) a.json.meta.replayed = true;
    },
  },
  {
    name: 'openapi-key-pattern-narrower',
    statement:
      'Limits: Idempotency-Key pattern ^[A-Za-z0-9._:-]{8,128}$ (the published OpenAPI description says the same)',
    answer(c, a) {
      // The document is built from an older validator: 16 to 64 characters, no dot or colon.
      if (c.path !== P('/openapi.json') || a.status !== 200) return;
      for (const o of objects(a.json))
        if (o.pattern === KEY_PATTERN) {
          o.pattern = '^[A-Za-z0-9_-]{16,64}$';
          if (typeof o.description === 'string')
            o.description = o.description.replace('8 to 128', '16 to 64').replace(', dot', '').replace(', colon', '');
        }
    },
  },
  {
    name: 'openapi-create-documents-201',
    statement: 'Endpoints: success responses use status 200 (as the OpenAPI description of POST /connections says)',
    answer(c, a) {
      const paths = a.json.paths as Record<string, { post?: { responses?: Record<string, unknown> } }> | undefined;
      const post = paths?.[P('/connections')]?.post;
      if (c.path !== P('/openapi.json') || !post?.responses?.['200']) return;
      const { 200: success, ...rest } = post.responses;
      post.responses = { 201: success, ...rest };
    },
  },
  {
    name: 'openapi-yaml-stale-version',
    statement: 'GET /openapi.json: the description is also offered as downloadable JSON and YAML files per version',
    stream(c, lines) {
      // The YAML file of the current version was built once, from the earlier version's document.
      const asked = c.headers['service-version'] ?? SUPPORTED_VERSIONS[0];
      if (c.path !== P('/openapi.yaml') || asked !== SUPPORTED_VERSIONS[0]) return lines;
      return lines.replace(/^( {2}version: )2026-07-01$/m, `$1${SUPPORTED_VERSIONS[1]}`);
    },
  },
  {
    name: 'self-description-relative-paths',
    statement: 'RouteInfo: path; "All paths start with /api/public/v1" (self-description routes)',
    answer(c, a) {
      // The authenticated routes come from a sub-router that reports its own, mount-relative paths.
      if (c.method !== 'GET' || c.path !== BASE_PATH || !Array.isArray(a.json.data?.routes)) return;
      for (const r of a.json.data.routes as { path: string; auth: boolean }[])
        if (r.auth && r.path.startsWith(`${BASE_PATH}/`)) r.path = r.path.slice(BASE_PATH.length);
    },
  },
  {
    name: 'alt-counts-its-own-window',
    statement:
      'Limits: X-RateLimit-Remaining (calls left in the window), configured per access, tenant and environment — not per address',
    answer(c, a) {
      // The alternate address runs its own counter: it reports only its own calls as spent.
      const limit = Number(a.headers['x-ratelimit-limit']);
      if (c.base !== 'alt' || !limit || a.headers['x-ratelimit-remaining'] === undefined || a.status === 429) return;
      const slot = `alt-calls:${c.headers.authorization ?? ''}:${c.headers['x-service-tenant'] ?? ''}`;
      const n = Number(c.memory.get(slot) ?? 0) + 1;
      c.memory.set(slot, n);
      a.headers['x-ratelimit-remaining'] = String(Math.max(0, limit - n));
    },
  },
];
