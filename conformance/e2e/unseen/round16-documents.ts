import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 16 of the unseen violations, part 1: the published description and the self-description — an
 * error-code enumeration without rate_limited, Meta.version pinned to the earlier version, the key
 * endpoint documented as keyed, an optional filter documented as required, the audit limit typed as
 * text, 401 documented with the success schema, the webhook registration without its key header, an
 * ASCII-only pattern on the scope label, and route paths written as absolute URLs under the alternate
 * address.
 */
type Rec = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** The operation of a path ending in `tail` (paths may be written relative to a server URL). */
const opAt = (doc: Rec, tail: string, method: string): Rec | undefined => {
  const key = Object.keys((doc.paths ?? {}) as Rec).find((p) => p.endsWith(tail));
  const op = key ? doc.paths[key]?.[method] : undefined;
  return op && typeof op === 'object' ? (op as Rec) : undefined;
};
const operations = (doc: Rec) =>
  Object.values((doc.paths ?? {}) as Rec).flatMap((item) =>
    METHODS.filter((m) => item && typeof item[m] === 'object').map((m) => item[m] as Rec),
  );
/** Resolves a local `$ref` (parameters are often shared components). */
const deref = (doc: Rec, x: Rec): Rec => {
  if (typeof x.$ref !== 'string' || !x.$ref.startsWith('#/')) return x;
  return (x.$ref.slice(2).split('/') as string[]).reduce<Rec>((o, k) => o?.[k], doc) ?? x;
};
/** Visits every object of a JSON value. */
const walk = (x: unknown, visit: (o: Rec) => void) => {
  if (Array.isArray(x)) for (const y of x) walk(y, visit);
  else if (x && typeof x === 'object') {
    visit(x as Rec);
    for (const y of Object.values(x)) walk(y, visit);
  }
};
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r16-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r16-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});

export const ROUND16_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-error-code-enum-lacks-rate-limited',
    statement:
      'Failure envelope: error.code | string | yes | one of the codes in the Errors part (rate_limited | 429 among them; GET /openapi.json: the machine-readable description of this interface)',
    ...documentEdit((doc) => {
      // The code enumeration was copied from the gateway-less first draft, where throttling did not exist yet.
      walk(doc, (o) => {
        if (Array.isArray(o.enum) && o.enum.includes('rate_limited') && o.enum.includes('internal'))
          o.enum = o.enum.filter((x: unknown) => x !== 'rate_limited');
      });
    }),
  },
  {
    name: 'openapi-meta-version-const-earlier',
    statement:
      'Versioning: The current version identifier is 2026-07-01 (a date). Responses report it in meta.version (GET /openapi.json describes this interface)',
    ...documentEdit((doc) => {
      // The Meta schema was generated once for 2026-06-12 with a literal type and never regenerated.
      walk(doc, (o) => {
        const p = o.properties as Rec | undefined;
        if (p?.requestId && p.version && p.at) p.version = { type: 'string', const: '2026-06-12' };
      });
    }),
  },
  {
    name: 'openapi-key-endpoint-documented-keyed',
    statement:
      'Endpoints: POST /api/public/v1/idempotency-keys | yes | generate an idempotency key (auth "yes", not "yes + key" as for POST /connections)',
    ...documentEdit((doc) => {
      // The generator marks every POST as keyed, so the endpoint that hands out keys demands one itself.
      const op = opAt(doc, '/idempotency-keys', 'post');
      if (!op) return;
      op.parameters = [
        ...(Array.isArray(op.parameters) ? op.parameters : []),
        { name: 'Idempotency-Key', in: 'header', required: true, schema: { type: 'string' } },
      ];
    }),
  },
  {
    name: 'openapi-providers-category-required',
    statement: 'GET /api/public/v1/providers: category | string | no (Required) | restricts to one category',
    ...documentEdit((doc) => {
      // The filter parameter is shared with the connectors route of an internal tool where it is mandatory.
      const op = opAt(doc, '/providers', 'get');
      if (!op) return;
      const params = (Array.isArray(op.parameters) ? op.parameters : []) as Rec[];
      const i = params.findIndex((p) => deref(doc, p).name === 'category');
      const required = {
        ...(i >= 0 ? deref(doc, params[i] as Rec) : { name: 'category', in: 'query' }),
        required: true,
      };
      op.parameters = i >= 0 ? params.map((p, j) => (j === i ? required : p)) : [...params, required];
    }),
  },
  {
    name: 'openapi-audit-limit-typed-string',
    statement: 'GET /api/public/v1/audit-log: Query: limit (number of entries)',
    ...documentEdit((doc) => {
      // Query parameters are strings on the wire, and the generator documented the raw wire type.
      const op = opAt(doc, '/audit-log', 'get');
      if (!op) return;
      const params = (Array.isArray(op.parameters) ? op.parameters : []) as Rec[];
      const i = params.findIndex((p) => deref(doc, p).name === 'limit');
      const text = {
        ...(i >= 0 ? deref(doc, params[i] as Rec) : { name: 'limit', in: 'query' }),
        schema: { type: 'string' },
      };
      op.parameters = i >= 0 ? params.map((p, j) => (j === i ? text : p)) : [...params, text];
    }),
  },
  {
    name: 'openapi-401-documented-with-success-schema',
    statement:
      'Failure envelope (every error response): ok | boolean | always false … (Endpoints: may answer with the statuses 400, 401, … each with the failure envelope)',
    ...documentEdit((doc) => {
      // A copy-paste in the response builder reuses the 200 response object for 401.
      for (const op of operations(doc)) {
        const r = op.responses as Rec | undefined;
        if (r?.['401'] && r['200']) r['401'] = { ...structuredClone(r['200']), description: 'Unauthorized' };
      }
    }),
  },
  {
    name: 'openapi-webhooks-post-without-key-header',
    statement: 'Endpoints: POST /api/public/v1/webhooks | yes + key (Headers: Idempotency-Key, content type JSON)',
    ...documentEdit((doc) => {
      // The webhook route is registered by a plugin whose route options never carried the key header.
      const op = opAt(doc, '/webhooks', 'post');
      if (!op || !Array.isArray(op.parameters)) return;
      op.parameters = (op.parameters as Rec[]).filter(
        (p) => String(deref(doc, p).name ?? '').toLowerCase() !== 'idempotency-key',
      );
    }),
  },
  {
    name: 'alt-self-description-absolute-route-paths',
    statement:
      'RouteInfo: path | string (All paths start with /api/public/v1; the same interface is also offered under {alt_base_url})',
    answer(c, a) {
      // Under the second address the routes are rendered through the URL builder of the public host.
      const routes = a.json.data?.routes as Rec[] | undefined;
      if (c.base !== 'alt' || c.method !== 'GET' || c.path !== P('') || a.status !== 200 || !Array.isArray(routes))
        return;
      for (const r of routes) if (typeof r.path === 'string') r.path = `https://api.alt.example.test${r.path}`;
    },
  },
  {
    name: 'openapi-scope-label-pattern-ascii-only',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 (a descriptive name, e.g. the name of the venue; no character rule)',
    ...documentEdit((doc) => {
      // A slug pattern from the URL-safe label field of the portal was attached to the schema.
      walk(doc, (o) => {
        const p = o.properties as Rec | undefined;
        if (p?.scopeLabel && p.connectorId && typeof p.scopeLabel === 'object' && !p.scopeLabel.$ref)
          p.scopeLabel = { ...p.scopeLabel, pattern: '^[A-Za-z0-9 ._-]+$' };
      });
    }),
  },
];
