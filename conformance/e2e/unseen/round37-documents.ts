import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 37 of the unseen violations, part 3: the OpenAPI document, its YAML files and the self-description
 * — nullable operations of issued keys and route purposes, error details typed as objects, checked
 * capabilities documented from three characters, the earlier self-description without its idempotency
 * object, the earlier YAML file without the key endpoint, and the alternate self-description naming
 * another tenant header.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
const isSelf = (c: ProxyCall, a: ProxyAnswer) => c.method === 'GET' && c.path === P('') && a.status === 200;
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? CURRENT;
const yamlAnswer = (text: string): ProxyAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/yaml; charset=utf-8', 'x-content-type-options': 'nosniff' },
  json: {},
  raw: text,
});
/** The YAML answer the service builds for the call's version, or undefined for a version it does not offer. */
const yamlOf = (c: ProxyCall, edit: (doc: Rec) => void) => {
  const version = versionOf(c);
  if (!isSupportedVersion(version)) return undefined;
  const doc = structuredClone(buildOpenApiDocument({ version }) as Rec);
  edit(doc);
  return yamlAnswer(openApiYaml(doc));
};
/** A current-version edit made by the one generator that writes both the JSON and the YAML file. */
const bothFiles = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request: (c) => (isYaml(c) && versionOf(c) === CURRENT ? yamlOf(c, edit) : undefined),
  answer(c, a) {
    if (isDoc(c, a) && versionOf(c) === CURRENT) edit(a.json);
  },
});
const schemas = (doc: Rec) => (doc.components?.schemas ?? {}) as Rec;
const nullable = (prop: Rec | undefined) => {
  if (prop && typeof prop.type === 'string') prop.type = [prop.type, 'null'];
};

export const ROUND37_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-key-result-operation-nullable',
    statement: 'Idempotency key result: operation | string (the description allows no null)',
    // The key model was generated from a table whose operation column became optional in a migration.
    ...bothFiles((doc) => nullable(schemas(doc).IdempotencyKeyResult?.properties?.operation)),
  },
  {
    name: 'openapi-route-info-purpose-nullable',
    statement: 'RouteInfo: purpose | string (the description allows no null)',
    // The route table type marks purpose optional for internal routes, and the generator copies that.
    ...bothFiles((doc) => nullable(schemas(doc).RouteInfo?.properties?.purpose)),
  },
  {
    name: 'openapi-failure-detail-typed-object',
    statement: 'Failure envelope: error.detail | string | no (the description documents a string)',
    answer(c, a) {
      // The JSON document was regenerated from a validation library's error type, whose detail is a field map.
      if (!isDoc(c, a) || versionOf(c) !== CURRENT) return;
      const detail = schemas(a.json).FailureEnvelope?.properties?.error?.properties?.detail as Rec | undefined;
      if (detail) {
        detail.type = 'object';
        detail.additionalProperties = { type: 'string' };
      }
    },
  },
  {
    name: 'openapi-check-capability-min-length-3',
    statement:
      'POST /api/public/v1/capabilities: capability | string | yes | length 2 to 120 (the description documents the same bounds)',
    // The check schema was copied from a draft where capability names had a three-letter family prefix.
    ...bothFiles((doc) => {
      const cap = schemas(doc).CapabilityCheckRequest?.properties?.capability;
      if (cap) cap.minLength = 3;
    }),
  },
  {
    name: 'earlier-self-description-idempotency-null',
    statement: 'GET /api/public/v1: data: … idempotency (free-form object) (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The 2026-06-12 description is rendered from a config file whose idempotency section was never ported.
      home(c);
      if (isSelf(c, a) && versionOf(c) === EARLIER && a.json.data) a.json.data.idempotency = null;
    },
  },
  {
    name: 'earlier-yaml-omits-key-endpoint',
    statement:
      'Endpoints: POST /api/public/v1/idempotency-keys | generate an idempotency key; GET /api/public/v1/openapi.json: … YAML files per version (the 2026-06-12 file describes it too)',
    request(c) {
      // The earlier YAML file is exported by an old job whose path filter drops routes with a hyphen.
      if (!isYaml(c) || versionOf(c) !== EARLIER) return undefined;
      return yamlOf(c, (doc) => {
        if (doc.paths) delete doc.paths[P('/idempotency-keys')];
      });
    },
  },
  {
    name: 'alt-self-description-tenant-header-renamed',
    statement:
      'Authentication: x-service-tenant | identifier of the tenant for which the call applies (the self-description under {alt_base_url} names it too)',
    answer(c, a) {
      // The alternate region's self-description is rendered from the settings of a legacy gateway.
      home(c);
      const auth = a.json.data?.authentication as Rec | undefined;
      if (c.base === 'alt' && isSelf(c, a) && auth && typeof auth === 'object') auth.tenantHeader = 'x-tenant-id';
    },
  },
];
