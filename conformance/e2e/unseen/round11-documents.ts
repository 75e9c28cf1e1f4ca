import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { CURRENT_VERSION, isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 11 of the unseen violations, part 1: the published description and the self-description —
 * a default the interface does not state, a reference to a schema that is not there, a version
 * field without its patch number, the tenant header under another name, a body field renamed, the
 * base path given twice, and route purposes that describe the neighbouring route.
 */
type Rec = Record<string, any>;
const isOpenApi = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const isYaml = (c: ProxyCall) => c.method === 'GET' && /\/openapi[^/]*\.ya?ml$/.test(c.path);
const versionOf = (c: ProxyCall) =>
  [c.search.get('version'), c.headers['service-version']].find((v) => v && isSupportedVersion(v)) ?? CURRENT_VERSION;
/** Visits every object of a document. */
const walk = (x: unknown, f: (o: Rec) => void) => {
  if (!x || typeof x !== 'object') return;
  f(x as Rec);
  for (const v of Object.values(x as Rec)) walk(v, f);
};

/**
 * One generator bug, published in both files: `edit` changes the JSON document, and the YAML download
 * is rendered from the same edited document, so the two files still agree with each other.
 */
function documented(edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> {
  return {
    request(c) {
      if (!isYaml(c)) return undefined;
      const v = versionOf(c);
      const known = c.memory.get(`doc:${v}`) as Rec | undefined;
      const doc = structuredClone(known ?? (buildOpenApiDocument({ version: v as never }) as Rec));
      if (!known) edit(doc);
      const answer: ProxyAnswer = {
        status: 200,
        headers: { 'content-type': 'application/yaml; charset=utf-8' },
        json: {},
        raw: openApiYaml(doc),
      };
      return answer;
    },
    answer(c, a) {
      if (!isOpenApi(c) || a.status !== 200) return;
      edit(a.json as Rec);
      c.memory.set(`doc:${versionOf(c)}`, structuredClone(a.json));
    },
  };
}

export const ROUND11_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-check-environment-default-production',
    statement: 'POST /api/public/v1/capabilities: environment | string | no | Environment; default sandbox',
    // The schema generator takes the default from the production deployment's configuration file.
    ...documented((doc) => {
      const env = doc.components?.schemas?.CapabilityCheckRequest?.properties?.environment as Rec | undefined;
      if (!env) return;
      env.default = 'production';
      if (typeof env.description === 'string') env.description = env.description.replaceAll('sandbox', 'production');
    }),
  },
  {
    name: 'openapi-dangling-schema-ref',
    statement:
      'What the service does: the interface publishes an OpenAPI 3.1 description (GET /openapi.json: the machine-readable description of this interface — its references resolve)',
    // The answer of POST /connections points at the schema of a renamed DTO that the build no longer emits.
    ...documented((doc) => {
      walk(doc.paths?.[P('/connections')]?.post, (o) => {
        if (o.$ref === '#/components/schemas/Connection') o.$ref = '#/components/schemas/ConnectionV2';
      });
    }),
  },
  {
    name: 'openapi-version-field-without-patch',
    statement:
      'GET /api/public/v1/openapi.json: Returns the machine-readable description of this interface as a JSON object (OpenAPI 3.1: the openapi field is a version number, 3.1.x)',
    // A template hard-codes the minor version only.
    ...documented((doc) => {
      doc.openapi = '3.1';
    }),
  },
  {
    name: 'openapi-tenant-header-misnamed',
    statement:
      'Authentication: Required on every authenticated call: x-service-tenant | identifier of the tenant for which the call applies (the published description names that header)',
    // The description is generated from the gateway's config, where the tenant header has its internal name.
    ...documented((doc) => {
      walk(doc, (o) => {
        if (typeof o.name === 'string' && o.name.toLowerCase() === 'x-service-tenant' && o.in === 'header')
          o.name = 'X-Tenant-Id';
      });
    }),
  },
  {
    name: 'openapi-key-operation-field-renamed',
    statement:
      'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80) — as the published description documents it',
    // The DTO was refactored (operation -> operationName) but the serializer keeps the wire name.
    ...documented((doc) => {
      const s = doc.components?.schemas?.CreateIdempotencyKeyRequest as Rec | undefined;
      if (!s?.properties?.operation) return;
      const { operation, ...rest } = s.properties as Rec;
      s.properties = { ...rest, operationName: operation };
      if (Array.isArray(s.required))
        s.required = s.required.map((r: string) => (r === 'operation' ? 'operationName' : r));
    }),
  },
  {
    name: 'openapi-servers-repeat-base-path',
    statement:
      'Network Connections Service Interface: All paths start with /api/public/v1 (the description: server URL and path together name the endpoint)',
    // The server URL gained the base path while the paths kept it: every operation resolves to /api/public/v1/api/public/v1/…
    ...documented((doc) => {
      doc.servers = [{ url: P(''), description: 'this deployment' }];
    }),
  },
  {
    name: 'self-description-purposes-shifted',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo: method, path, purpose, auth) — each route with its own purpose (Endpoints: Purpose)',
    answer(c, a) {
      // The purposes are joined to the routes by index after one list was sorted and the other not.
      const routes = a.json.data?.routes;
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200 || !Array.isArray(routes) || routes.length < 2)
        return;
      const purposes = routes.map((r: Rec) => r.purpose);
      routes.forEach((r: Rec, i: number) => {
        r.purpose = purposes[(i + 1) % purposes.length];
      });
    },
  },
];
