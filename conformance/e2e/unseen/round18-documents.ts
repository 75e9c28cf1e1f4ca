import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 18 of the unseen violations, part 2: the self-description and the OpenAPI document — the stream
 * route listed with its query, an internal route listed, an unoffered DELETE documented, the document
 * served as YAML under the alternate address, the stream documented as POST, the key result's expiry
 * typed integer, the tenant header documented as a cookie, and the connection list documented with a
 * required Idempotency-Key.
 */
type Rec = Record<string, any>;
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r18-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
    if (!doc) return undefined;
    return {
      status: 200,
      headers: { 'content-type': 'application/yaml; charset=utf-8', 'x-content-type-options': 'nosniff' },
      json: {},
      raw: openApiYaml(doc),
    };
  },
  answer(c, a: ProxyAnswer) {
    if (!isDoc(c) || a.status !== 200) return;
    edit(a.json);
    c.memory.set(`r18-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const paths = (doc: Rec) => (doc && typeof doc.paths === 'object' ? (doc.paths as Rec) : {});
const ops = (doc: Rec) =>
  Object.values(paths(doc)).flatMap((item) =>
    item && typeof item === 'object'
      ? Object.entries(item as Rec)
          .filter(([m]) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
          .map(([, op]) => op as Rec)
      : [],
  );
const toYaml = (v: unknown, indent = ''): string => {
  if (Array.isArray(v))
    return v.length ? v.map((x) => `\n${indent}- ${toYaml(x, `${indent}  `).trimStart()}`).join('') : ' []';
  if (v && typeof v === 'object') {
    const e = Object.entries(v as Rec);
    return e.length ? e.map(([k, x]) => `\n${indent}${JSON.stringify(k)}:${toYaml(x, `${indent}  `)}`).join('') : ' {}';
  }
  return ` ${JSON.stringify(v)}`;
};

export const ROUND18_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'self-description-stream-path-with-query',
    statement:
      "GET /api/public/v1: routes (array of RouteInfo) — RouteInfo.path; the stream's path is /api/public/v1/stream",
    answer(c, a) {
      // The route table is rendered from a template that shows the resume parameter in the path.
      if (!isSelf(c) || !Array.isArray(a.json.data?.routes)) return;
      for (const r of a.json.data.routes as Rec[])
        if (r.path === P('/stream')) r.path = `${P('/stream')}?cursor={cursor}`;
    },
  },
  {
    name: 'self-description-lists-internal-route',
    statement:
      'GET /api/public/v1: routes (array of RouteInfo) — the self-description describes the interface (Endpoints table)',
    answer(c, a) {
      // Routes come from the router's registry, which includes an operator route the public address does not serve.
      if (!isSelf(c) || !Array.isArray(a.json.data?.routes)) return;
      (a.json.data.routes as Rec[]).push({
        method: 'POST',
        path: P('/internal/cache-flush'),
        purpose: 'flush catalog caches',
        auth: true,
      });
    },
  },
  {
    name: 'openapi-documents-unoffered-delete',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface (a DELETE on connections is not offered)',
    ...documentEdit((doc) => {
      // The generator documents every handler stub, including a DELETE that is not routed yet.
      const p = paths(doc)[P('/connections')] as Rec | undefined;
      if (!p?.get) return;
      p.delete = {
        operationId: 'deleteConnections',
        summary: 'remove connections of the tenant',
        parameters: p.get.parameters,
        security: p.get.security,
        responses: p.get.responses,
      };
    }),
  },
  {
    name: 'alt-openapi-served-as-yaml',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (under {alt_base_url}: the same interface)',
    answer(c, a) {
      // The alternate address's CDN rule rewrites openapi.* to the YAML download.
      if (c.base !== 'alt' || !isDoc(c) || a.status !== 200) return;
      a.raw = `openapi: ${JSON.stringify(a.json.openapi)}${toYaml(Object.fromEntries(Object.entries(a.json).filter(([k]) => k !== 'openapi')))}\n`;
      a.headers['content-type'] = 'application/yaml; charset=utf-8';
    },
  },
  {
    name: 'openapi-stream-documented-as-post',
    statement: 'Endpoints: GET | /api/public/v1/stream | public | status stream (OpenAPI 3.1 document)',
    ...documentEdit((doc) => {
      // The stream's path item was copied from the webhooks one and keeps its method.
      const p = paths(doc)[P('/stream')] as Rec | undefined;
      if (!p?.get) return;
      p.post = p.get;
      delete p.get;
    }),
  },
  {
    name: 'openapi-key-result-expires-at-integer',
    statement: 'Idempotency key result: expiresAt | string, date-time (OpenAPI 3.1 document)',
    ...documentEdit((doc) => {
      // The schema was generated from the storage model, where expiry is a unix timestamp.
      const seen = new Set<Rec>();
      const walk = (v: unknown) => {
        if (!v || typeof v !== 'object' || seen.has(v as Rec)) return;
        seen.add(v as Rec);
        const r = v as Rec;
        if (r.properties?.expiresAt && r.properties?.idempotencyKey)
          r.properties.expiresAt = { type: 'integer', description: 'unix seconds' };
        for (const x of Object.values(r)) walk(x);
      };
      walk(doc);
    }),
  },
  {
    name: 'openapi-tenant-header-documented-as-cookie',
    statement:
      'Authentication: x-service-tenant | identifier of the tenant for which the call applies (a header; OpenAPI 3.1 document)',
    ...documentEdit((doc) => {
      // The parameter's location is taken from the browser SDK's session settings.
      for (const op of ops(doc))
        for (const p of (op.parameters ?? []) as Rec[])
          if (String(p.name).toLowerCase() === 'x-service-tenant') p.in = 'cookie';
    }),
  },
  {
    name: 'openapi-list-requires-key-header',
    statement:
      'Authentication: Idempotency-Key | on modifying calls (GET /api/public/v1/connections is a read; OpenAPI 3.1 document)',
    ...documentEdit((doc) => {
      // One shared parameter list for the /connections path item puts the creation's key on the read too.
      const p = paths(doc)[P('/connections')] as Rec | undefined;
      if (!p?.get) return;
      p.get.parameters = [
        ...((p.get.parameters ?? []) as Rec[]),
        {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{8,128}$' },
        },
      ];
    }),
  },
];
