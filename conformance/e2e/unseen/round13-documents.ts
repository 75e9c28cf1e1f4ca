import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { CURRENT_VERSION, isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 13 of the unseen violations, part 3: the published description — HTTP methods keyed in upper
 * case, responses documented as XML, a connection's capabilities typed as strings, the failure
 * envelope's ok pinned to true, the category filter placed in the path, the stream documented behind a
 * bearer token, a required field the answers never carry, a path item left null, and no info.title.
 */
type Rec = Record<string, any>;
const isOpenApi = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const isYaml = (c: ProxyCall) => c.method === 'GET' && /\/openapi[^/]*\.ya?ml$/.test(c.path);
const versionOf = (c: ProxyCall) =>
  [c.search.get('version'), c.headers['service-version']].find((v) => v && isSupportedVersion(v)) ?? CURRENT_VERSION;

/** One generator bug, published in the JSON document and in the YAML download rendered from it. */
function documented(edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> {
  return {
    request(c) {
      if (!isYaml(c)) return undefined;
      const doc = structuredClone(buildOpenApiDocument({ version: versionOf(c) as never }) as Rec);
      edit(doc);
      const answer: ProxyAnswer = {
        status: 200,
        headers: { 'content-type': 'application/yaml; charset=utf-8' },
        json: {},
        raw: openApiYaml(doc),
      };
      return answer;
    },
    answer(c, a) {
      if (isOpenApi(c) && a.status === 200) edit(a.json as Rec);
    },
  };
}
const schema = (doc: Rec, name: string) => doc.components?.schemas?.[name] as Rec | undefined;
const methods = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'];

export const ROUND13_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-methods-uppercase',
    statement:
      'What the service does: The interface … publishes an OpenAPI 3.1 description (operations keyed by lower-case method names)',
    ...documented((doc) => {
      // The generator copies the router's method names ("GET", "POST") as the path item keys.
      for (const item of Object.values((doc.paths ?? {}) as Record<string, Rec>))
        for (const m of methods)
          if (item[m]) {
            item[m.toUpperCase()] = item[m];
            delete item[m];
          }
    }),
  },
  {
    name: 'openapi-responses-documented-as-xml',
    statement:
      'Success envelope (every JSON success response) / GET /api/public/v1/openapi.json: the machine-readable description of this interface',
    ...documented((doc) => {
      // A content negotiation plugin rewrote every media type of the document to its XML default.
      for (const item of Object.values((doc.paths ?? {}) as Record<string, Rec>))
        for (const o of Object.values(item) as Rec[])
          for (const r of Object.values((o?.responses ?? {}) as Record<string, Rec>)) {
            const json = r?.content?.['application/json'];
            if (json) {
              r.content = { 'application/xml': json };
            }
          }
    }),
  },
  {
    name: 'openapi-connection-capabilities-as-strings',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    ...documented((doc) => {
      // The Connection schema reuses the creation request's field definition (array of string).
      const c = schema(doc, 'Connection');
      if (c?.properties?.capabilities) c.properties.capabilities = { type: 'array', items: { type: 'string' } };
    }),
  },
  {
    name: 'openapi-failure-ok-pinned-true',
    statement: 'Failure envelope (every error response): ok | boolean | yes | always false',
    ...documented((doc) => {
      // The failure schema was cloned from the success schema and its constant never changed.
      const f = schema(doc, 'FailureEnvelope');
      if (f?.properties?.ok) f.properties.ok = { type: 'boolean', enum: [true] };
    }),
  },
  {
    name: 'openapi-category-filter-in-path',
    statement: 'GET /api/public/v1/providers: Query parameter category | string | no | restricts to one category',
    ...documented((doc) => {
      // The parameter helper defaulted `in` to "path" for a shared definition; a path parameter is also always required.
      for (const p of (doc.paths?.[P('/providers')]?.get?.parameters ?? []) as Rec[])
        if (p.name === 'category') {
          p.in = 'path';
          p.required = true;
        }
    }),
  },
  {
    name: 'openapi-stream-documented-with-bearer',
    statement:
      'Authentication: Public endpoints (no authentication): GET /api/public/v1, GET /api/public/v1/openapi.json, GET /api/public/v1/stream',
    ...documented((doc) => {
      // The stream route is registered behind the default security middleware in the generator's route table.
      const s = doc.paths?.[P('/stream')]?.get;
      if (s) s.security = [{ oauth2: [] }];
    }),
  },
  {
    name: 'openapi-connection-requires-tenant-id',
    statement:
      'Connection: fields id, connectorId, environment, scopeLabel, state, capabilities, nextStep, createdAt (the published description matches the answers)',
    ...documented((doc) => {
      // An internal column (tenantId) is listed as required although the serializer never sends it.
      const c = schema(doc, 'Connection');
      if (!c) return;
      c.properties = { ...(c.properties ?? {}), tenantId: { type: 'string' } };
      c.required = [...((c.required ?? []) as string[]), 'tenantId'];
    }),
  },
  {
    name: 'openapi-audit-path-item-null',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1)',
    ...documented((doc) => {
      // A feature flag blanks the audit route's path item instead of removing the key.
      if (doc.paths?.[P('/audit-log')]) doc.paths[P('/audit-log')] = null;
      else if (doc.paths?.[P('/idempotency-keys')]) doc.paths[P('/idempotency-keys')] = null;
    }),
  },
  {
    name: 'openapi-info-title-missing',
    statement:
      'What the service does: The interface … publishes an OpenAPI 3.1 description (info.title is required in OpenAPI 3.1)',
    ...documented((doc) => {
      // The title is taken from a package.json field that the production build strips.
      if (doc.info) delete doc.info.title;
    }),
  },
];
