import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 15 of the unseen violations, part 1: the published description and the self-description —
 * anonymous access offered as an alternative, path templates without their parameters, request bodies
 * marked optional, a tenant-header pattern that refuses the tenants, the earlier version's document
 * without the key rule it introduced, connection states of an older state machine, Retry-After
 * documented as a date, and a self-description that answers HTML unless JSON is asked for.
 */
type Rec = Record<string, any>;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
/** Every operation object of a document, with its path. */
const operations = (doc: Rec) =>
  Object.entries((doc.paths ?? {}) as Rec).flatMap(([path, item]) =>
    METHODS.filter((m) => item && typeof item[m] === 'object').map((m) => ({ path, method: m, op: item[m] as Rec })),
  );
const params = (op: Rec) => (Array.isArray(op.parameters) ? (op.parameters as Rec[]) : []);

const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/**
 * A document violation: `edit` changes openapi.json, and the YAML download of the same version and
 * address is served from the edited JSON (a deployment generates both from one source).
 */
const documentEdit = (edit: (c: ProxyCall, doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r15-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    edit(c, a.json);
    c.memory.set(`r15-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});

export const ROUND15_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-auth-optional-alternative',
    statement:
      'Endpoints: All authenticated endpoints require the headers described under Authentication (Authorization: Bearer token, required on every authenticated call)',
    ...documentEdit((_c, doc) => {
      // "Try it out" in the portal needed anonymous calls, so every secured operation also lists the empty requirement {}.
      for (const { op } of operations(doc))
        if (Array.isArray(op.security) && op.security.length > 0) op.security = [...op.security, {}];
    }),
  },
  {
    name: 'openapi-path-template-parameter-undeclared',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1: every path template expression MUST correspond to a path parameter)',
    ...documentEdit((_c, doc) => {
      // The generator declares path parameters only on the router, never in the document.
      for (const [path, item] of Object.entries((doc.paths ?? {}) as Rec)) {
        if (!path.includes('{') || !item) continue;
        if (Array.isArray(item.parameters)) item.parameters = (item.parameters as Rec[]).filter((p) => p.in !== 'path');
        for (const m of METHODS)
          if (item[m] && Array.isArray(item[m].parameters))
            item[m].parameters = (item[m].parameters as Rec[]).filter((p) => p.in !== 'path');
      }
    }),
  },
  {
    name: 'openapi-request-bodies-optional',
    statement:
      'POST /api/public/v1/capabilities: Body (JSON): connectorId | yes, capability | yes; POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required)',
    ...documentEdit((_c, doc) => {
      // requestBody.required defaults to false in OpenAPI, and the generator only sets it for "yes + key" calls.
      for (const { path, method, op } of operations(doc))
        if (
          method === 'post' &&
          (path.endsWith('/capabilities') || path.endsWith('/idempotency-keys')) &&
          op.requestBody &&
          typeof op.requestBody === 'object'
        )
          op.requestBody.required = false;
    }),
  },
  {
    name: 'openapi-tenant-header-pattern-excludes-hyphen',
    statement:
      'Authentication: x-service-tenant | identifier of the tenant for which the call applies (the description must admit the tenants the service serves)',
    ...documentEdit((_c, doc) => {
      // The tenant parameter reuses the "slug" schema of an older product, which allows letters and digits only.
      const pin = (p: Rec) => {
        if (String(p.name ?? '').toLowerCase() === 'x-service-tenant' && p.in === 'header')
          p.schema = { ...(p.schema ?? {}), type: 'string', pattern: '^[a-z0-9]{3,40}$' };
      };
      for (const { op } of operations(doc)) params(op).forEach(pin);
      for (const item of Object.values((doc.paths ?? {}) as Rec))
        if (item && Array.isArray(item.parameters)) (item.parameters as Rec[]).forEach(pin);
      for (const p of Object.values(((doc.components as Rec | undefined)?.parameters ?? {}) as Rec))
        if (p) pin(p as Rec);
    }),
  },
  {
    name: 'openapi-earlier-version-key-optional',
    statement:
      'Versioning: Change of 2026-06-12 (security): modifying calls require an idempotency key (GET /openapi.json: the description is also offered per version)',
    ...documentEdit((c, doc) => {
      // The 2026-06-12 document is generated from the schema tagged before the security change was merged.
      const earlier = c.search.get('version') === '2026-06-12' || c.headers['service-version'] === '2026-06-12';
      if (!earlier) return;
      for (const { op } of operations(doc))
        for (const p of params(op)) if (String(p.name ?? '').toLowerCase() === 'idempotency-key') p.required = false;
    }),
  },
  {
    name: 'openapi-connection-states-renamed',
    statement:
      'Connection: state | string (GET /openapi.json: the machine-readable description of this interface — of the states its answers carry)',
    ...documentEdit((_c, doc) => {
      // The enumeration was written for the first state machine (live/suspended) and never followed the rename.
      const conn = (doc.components as Rec | undefined)?.schemas?.Connection as Rec | undefined;
      if (!conn?.properties?.state) return;
      conn.properties.state = { type: 'string', enum: ['pending', 'live', 'suspended', 'revoked'] };
    }),
  },
  {
    name: 'openapi-retry-after-documented-as-date',
    statement: 'Limits: Response headers: … Retry-After (recommended wait in seconds)',
    ...documentEdit((_c, doc) => {
      // The header was documented from the HTTP reference, which shows the HTTP-date form first.
      const date = {
        description: 'Date and time after which the call may be retried (HTTP-date)',
        schema: { type: 'string', format: 'date-time' },
      };
      const headers = (doc.components as Rec | undefined)?.headers as Rec | undefined;
      if (headers?.['Retry-After']) headers['Retry-After'] = date;
      for (const { op } of operations(doc))
        for (const r of Object.values((op.responses ?? {}) as Rec))
          if (r?.headers?.['Retry-After'] && !r.headers['Retry-After'].$ref) r.headers['Retry-After'] = date;
    }),
  },
  {
    name: 'self-description-html-unless-json-accepted',
    statement:
      'GET /api/public/v1: No parameters. data: service (string), surface (string), version (string), … (Success responses use status 200 and the success envelope)',
    request(c) {
      // The base path doubles as the developer portal's landing page: content negotiation picks HTML for */*.
      if (c.method !== 'GET' || c.path !== P('')) return undefined;
      const accept = (c.headers.accept ?? '').toLowerCase();
      if (accept.includes('json')) return undefined;
      return {
        status: 200,
        headers: { 'content-type': 'text/html; charset=utf-8', 'x-content-type-options': 'nosniff' },
        json: {},
        raw: '<!doctype html><html><head><title>Network Connections Service</title></head><body><h1>Network Connections Service</h1><p>Public interface 2026-07-01. See <a href="/api/public/v1/openapi.json">the OpenAPI description</a>.</p></body></html>',
      };
    },
  },
];
