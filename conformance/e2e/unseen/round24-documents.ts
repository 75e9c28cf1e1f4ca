import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 24 of the unseen violations, part 4: the OpenAPI document — declared as OpenAPI 3.0.3, the
 * key endpoint left out, the bearer token documented as HTTP basic, the stream's answer documented
 * as JSON, Capability.critical typed string, the Idempotency-Key header with a minimum length of 16,
 * the list counts typed string; and the self-description marking the webhook route public, and
 * unknown paths answered with an HTML 404.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
/** The interface's own paths (and the simulator's documented extras): their 404s stay the API's. */
const KNOWN = new Set(
  [
    '',
    '/',
    '/openapi.json',
    '/openapi.yaml',
    '/info',
    '/providers',
    '/connectors',
    '/capabilities',
    '/connections',
    '/idempotency-keys',
    '/stream',
    '/webhooks',
    '/audit-log',
  ].map(P),
);
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r24-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r24-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const schema = (doc: Rec, name: string) => doc?.components?.schemas?.[name] as Rec | undefined;
/** Every operation of the document. */
const operations = (doc: Rec) =>
  Object.values((doc?.paths ?? {}) as Rec).flatMap((item) =>
    ['get', 'post', 'put', 'patch', 'delete'].map((m) => (item as Rec)?.[m] as Rec | undefined).filter(Boolean),
  ) as Rec[];
/** Walks a schema (not through $ref) and calls `visit` on every object. */
const walk = (node: unknown, visit: (o: Rec) => void) => {
  if (!node || typeof node !== 'object') return;
  visit(node as Rec);
  for (const v of Object.values(node as Rec)) walk(v, visit);
};

export const ROUND24_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-declared-3-0',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1)',
    ...documentEdit((doc) => {
      // The generator's output version is pinned in a shared config that still says 3.0.3.
      doc.openapi = '3.0.3';
    }),
  },
  {
    name: 'openapi-key-endpoint-missing',
    statement:
      'Endpoints: POST /api/public/v1/idempotency-keys | yes | generate an idempotency key (the endpoint reference is generated from the published description)',
    ...documentEdit((doc) => {
      // The key endpoint's handler lives in a shared module the document generator does not scan.
      if (doc?.paths) delete doc.paths[P('/idempotency-keys')];
    }),
  },
  {
    name: 'openapi-bearer-documented-as-basic',
    statement: 'Authentication: Authorization | Bearer token obtained through an OAuth flow',
    ...documentEdit((doc) => {
      // The security scheme was copied from the internal admin API, which uses HTTP basic.
      const schemes = doc?.components?.securitySchemes as Rec | undefined;
      if (!schemes) return;
      for (const k of Object.keys(schemes)) schemes[k] = { type: 'http', scheme: 'basic' };
    }),
  },
  {
    name: 'self-description-webhooks-route-marked-public',
    statement:
      'Endpoints: POST /api/public/v1/webhooks | yes + key — RouteInfo: auth | boolean (GET /api/public/v1: routes)',
    answer(c, a) {
      // The webhook routes come from a plugin whose authentication runs in middleware; the route table
      // the self-description is built from records the plugin's own (absent) auth flag as false.
      if (c.method !== 'GET' || (c.path !== P('') && c.path !== P('/')) || a.status !== 200) return;
      const routes = a.json.data?.routes;
      if (!Array.isArray(routes)) return;
      for (const r of routes as Rec[])
        if (String(r?.method).toUpperCase() === 'POST' && r?.path === P('/webhooks') && r.auth === true) r.auth = false;
    },
  },
  {
    name: 'unknown-path-404-html',
    statement: 'Errors: Error responses use the failure envelope (not_found | 404 | the entry does not exist)',
    answer(c, a) {
      // Paths no route matches fall through to the web server's default page instead of the API's
      // error handler: a 404 in HTML, without the failure envelope or a request id.
      if (a.status !== 404 || KNOWN.has(c.path) || /\/(connections|webhooks)\//.test(c.path)) return;
      a.headers['content-type'] = 'text/html; charset=utf-8';
      a.raw = '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>';
    },
  },
  {
    name: 'openapi-stream-answer-documented-as-json',
    statement: 'GET /api/public/v1/stream: Response: content type text/event-stream',
    ...documentEdit((doc) => {
      // The generator gives every 200 answer the JSON media type; the stream's hand-written override was lost.
      const content = doc?.paths?.[P('/stream')]?.get?.responses?.['200']?.content as Rec | undefined;
      const sse = content?.['text/event-stream'];
      if (!content || !sse) return;
      delete content['text/event-stream'];
      content['application/json'] = { schema: { type: 'object' } };
    }),
  },
  {
    name: 'openapi-capability-critical-typed-string',
    statement: 'Capability: critical | boolean',
    ...documentEdit((doc) => {
      // The catalog column is an enum ('yes'/'no') in the source table the schema is derived from.
      const s = schema(doc, 'Capability')?.properties as Rec | undefined;
      if (s?.critical) s.critical = { type: 'string', enum: ['yes', 'no'] };
    }),
  },
  {
    name: 'openapi-key-header-min-length-16',
    statement: 'Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters ...)',
    ...documentEdit((doc) => {
      // A "key strength" rule added minLength 16 next to the (unchanged) pattern.
      for (const op of operations(doc))
        for (const p of Array.isArray(op.parameters) ? (op.parameters as Rec[]) : [])
          if (String(p?.name).toLowerCase() === 'idempotency-key' && p.schema) p.schema.minLength = 16;
    }),
  },
  {
    name: 'openapi-list-counts-typed-string',
    statement: 'GET /api/public/v1/providers (connectors, capabilities, connections): data: count (integer)',
    ...documentEdit((doc) => {
      // The counts are documented from a SQL COUNT, which the driver returns as a string (bigint).
      for (const op of operations(doc))
        walk(op.responses?.['200'], (o) => {
          if (o.properties?.count && typeof o.properties.count === 'object')
            o.properties.count = { type: 'string', pattern: '^[0-9]+$' };
        });
      for (const s of Object.values((doc?.components?.schemas ?? {}) as Rec))
        walk(s, (o) => {
          if (o.properties?.count && typeof o.properties.count === 'object')
            o.properties.count = { type: 'string', pattern: '^[0-9]+$' };
        });
    }),
  },
];
