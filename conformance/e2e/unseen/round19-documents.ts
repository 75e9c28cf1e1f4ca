import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 19 of the unseen violations, part 2: the OpenAPI document and the self-description — the
 * provider list documented with connector items, the public stream documented with a required tenant
 * header, the decision's reason documented nullable, scopeLabel documented read-only in the creation
 * body, the document served as text/plain, 429 documented without Retry-After, the key result
 * documented without the envelope, the self-description's idempotency object sent as an array, and the
 * catalog read and the check merged into one route entry.
 */
type Rec = Record<string, any>;
const isSelf = (c: ProxyCall) => c.method === 'GET' && c.path === P('');
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r19-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r19-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const paths = (doc: Rec) => (doc && typeof doc.paths === 'object' ? (doc.paths as Rec) : {});
const op = (doc: Rec, tail: string, method: string) => paths(doc)[P(tail)]?.[method] as Rec | undefined;
const schemas = (doc: Rec) => (doc?.components?.schemas ?? {}) as Rec;

export const ROUND19_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-provider-list-items-as-connectors',
    statement:
      'GET /api/public/v1/providers: data: count (integer), providers (array of Provider) — the OpenAPI 3.1 description of this interface',
    ...documentEdit((doc) => {
      // The response schema of the provider list was copied from the connector list and its item ref left as it was.
      const items = op(doc, '/providers', 'get')?.responses?.['200']?.content?.['application/json']?.schema?.properties
        ?.data?.properties?.providers?.items as Rec | undefined;
      if (items) items.$ref = '#/components/schemas/Connector';
    }),
  },
  {
    name: 'openapi-stream-requires-tenant-header',
    statement:
      'Authentication: Public endpoints (no authentication): GET /api/public/v1, GET /api/public/v1/openapi.json, GET /api/public/v1/stream',
    ...documentEdit((doc) => {
      // A shared "tenant header" parameter object with required: true was reused for the stream.
      for (const p of (op(doc, '/stream', 'get')?.parameters ?? []) as Rec[])
        if (String(p?.name).toLowerCase() === 'x-service-tenant') p.required = true;
    }),
  },
  {
    name: 'openapi-decision-reason-nullable',
    statement: 'CapabilityDecision (all fields required): reason | string',
    ...documentEdit((doc) => {
      // The ORM column is nullable, and the schema generator carried that into the published type.
      const reason = schemas(doc).CapabilityDecision?.properties?.reason as Rec | undefined;
      if (reason) reason.type = ['string', 'null'];
    }),
  },
  {
    name: 'openapi-create-scope-label-read-only',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: ... scopeLabel | string | length 2 to 120',
    ...documentEdit((doc) => {
      // The Connection's scopeLabel annotation (set once at creation) was shared with the request body schema.
      const s = schemas(doc).CreateConnectionRequest?.properties?.scopeLabel as Rec | undefined;
      if (s) s.readOnly = true;
    }),
  },
  {
    name: 'openapi-document-served-as-text-plain',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1)',
    answer(c, a) {
      // The document is a static file and the static server has no mapping for .json behind the CDN.
      if (isDoc(c) && a.status === 200) a.headers['content-type'] = 'text/plain; charset=utf-8';
    },
  },
  {
    name: 'openapi-429-without-retry-after',
    statement:
      'Limits: Response headers: ... Retry-After (recommended wait in seconds). When exceeded, the service answers 429 with a wait time.',
    ...documentEdit((doc) => {
      // The 429 response object was built from the generic failure response, which has no Retry-After.
      for (const item of Object.values(paths(doc)) as Rec[])
        for (const o of Object.values(item ?? {}) as Rec[]) {
          const h = o?.responses?.['429']?.headers as Rec | undefined;
          if (h) for (const k of Object.keys(h)) if (k.toLowerCase() === 'retry-after') delete h[k];
        }
      const shared = doc?.components?.headers as Rec | undefined;
      if (shared) for (const k of Object.keys(shared)) if (k.toLowerCase() === 'retry-after') delete shared[k];
    }),
  },
  {
    name: 'openapi-key-result-documented-unwrapped',
    statement:
      'Success envelope (every JSON success response): ok, data, meta — POST /api/public/v1/idempotency-keys: data: idempotencyKey, operation, expiresAt',
    ...documentEdit((doc) => {
      // The key endpoint was documented from the handler's return type, before the envelope middleware wraps it.
      const content = op(doc, '/idempotency-keys', 'post')?.responses?.['200']?.content?.['application/json'] as
        | Rec
        | undefined;
      if (content) content.schema = { $ref: '#/components/schemas/IdempotencyKeyResult' };
    }),
  },
  {
    name: 'self-description-idempotency-as-array',
    statement:
      'GET /api/public/v1: data: service (string), surface (string), version (string), authentication (free-form object), idempotency (free-form object), routes (array of RouteInfo)',
    answer(c, a) {
      // The idempotency section is built as a list of [name, value] pairs that is never turned back into an object.
      if (!isSelf(c) || a.status !== 200) return;
      const d = a.json.data as Rec | undefined;
      if (d?.idempotency && typeof d.idempotency === 'object' && !Array.isArray(d.idempotency))
        d.idempotency = Object.entries(d.idempotency);
    },
  },
  {
    name: 'self-description-capability-routes-merged',
    statement:
      'RouteInfo: method | string — Endpoints: GET /api/public/v1/capabilities (capability catalog) and POST /api/public/v1/capabilities (check a capability of a connector)',
    answer(c, a) {
      // The route table is grouped by path, so the two methods of /capabilities end up in one entry.
      if (!isSelf(c) || a.status !== 200 || !Array.isArray(a.json.data?.routes)) return;
      const routes = a.json.data.routes as Rec[];
      const at = routes.filter((r) => r?.path === P('/capabilities'));
      if (at.length < 2) return;
      const merged = {
        ...at[0],
        method: at.map((r) => r.method).join(', '),
        purpose: at.map((r) => r.purpose).join('; '),
      };
      a.json.data.routes = routes.flatMap((r) => (r === at[0] ? [merged] : at.includes(r) ? [] : [r]));
    },
  },
];
