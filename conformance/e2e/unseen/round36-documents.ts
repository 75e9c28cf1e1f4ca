import { buildOpenApiDocument } from '../../../simulator/contract/openapi.ts';
import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import { isSupportedVersion } from '../../../simulator/contract/versions.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { home, P } from './proxy-helpers.ts';

/**
 * Round 36 of the unseen violations, part 3: the OpenAPI document, its YAML files and the self-description
 * — the earlier YAML file naming the current version, the alternate YAML file's operations capped at 40,
 * nullable capability labels and venue names, localised provider names, creation 409s documented without
 * a request id, and the earlier self-description without the stream route.
 */
type Rec = Record<string, any>;
const CURRENT = '2026-07-01';
const EARLIER = '2026-06-12';
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const isYaml = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.yaml');
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

export const ROUND36_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'earlier-yaml-info-version-current',
    statement:
      'GET /api/public/v1/openapi.json: … downloadable JSON and YAML files per version; Versioning: An earlier published version is 2026-06-12 (its YAML file names it)',
    request(c) {
      // The YAML exporter stamps info.version from the build constant instead of the document it renders.
      return isYaml(c) && versionOf(c) === EARLIER
        ? yamlOf(c, (doc) => {
            if (doc.info) doc.info.version = CURRENT;
          })
        : undefined;
    },
  },
  {
    name: 'alt-yaml-operation-max-length-40',
    statement:
      'Limits: operation in idempotency key creation | length 2 to 80 (the YAML file under {alt_base_url} describes the same)',
    request(c) {
      // The alternate region's YAML file comes from a build whose key table had a VARCHAR(40) operation column.
      home(c);
      if (c.base !== 'alt' || !isYaml(c)) return undefined;
      return yamlOf(c, (doc) => {
        const op = schemas(doc).CreateIdempotencyKeyRequest?.properties?.operation;
        if (op) op.maxLength = 40;
      });
    },
  },
  {
    name: 'openapi-capability-label-nullable',
    statement: 'Capability: label | string (the description allows no null)',
    // The catalog model was generated from a database column that allows NULL.
    ...bothFiles((doc) => nullable(schemas(doc).Capability?.properties?.label)),
  },
  {
    name: 'openapi-connection-scope-label-nullable',
    statement: 'Connection: scopeLabel | string | descriptive name (the description allows no null)',
    // The answer model was generated from an ORM entity whose venue column is optional.
    ...bothFiles((doc) => nullable(schemas(doc).Connection?.properties?.scopeLabel)),
  },
  {
    name: 'openapi-provider-name-localised-object',
    statement: 'Provider: name | string (the description documents a string, not a map of locales)',
    answer(c, a) {
      // The JSON document is generated from the i18n-aware catalog model, which the answers do not use.
      if (!isDoc(c, a) || versionOf(c) !== CURRENT) return;
      const props = schemas(a.json).Provider?.properties as Rec | undefined;
      if (props?.name) props.name = { type: 'object', additionalProperties: { type: 'string' } };
    },
  },
  {
    name: 'openapi-creation-409-meta-lacks-request-id',
    statement:
      'Failure envelope: meta | Meta | yes; Meta: requestId | string | yes (the described 409 answer of POST /connections too)',
    answer(c, a) {
      // The 409 answer was documented by hand with an inline schema copied from an older Meta without requestId.
      if (!isDoc(c, a) || versionOf(c) !== CURRENT) return;
      const res = (a.json as Rec).paths?.[P('/connections')]?.post?.responses?.['409'];
      const meta = { type: 'object', properties: { version: { type: 'string' }, at: { type: 'string' } } };
      const schema = {
        type: 'object',
        required: ['ok', 'error', 'meta'],
        properties: { ok: { type: 'boolean' }, error: schemas(a.json).FailureEnvelope?.properties?.error ?? {}, meta },
      };
      if (res?.content?.['application/json']) res.content['application/json'].schema = schema;
    },
  },
  {
    name: 'earlier-self-description-omits-stream-route',
    statement:
      'Endpoints: GET /api/public/v1/stream | public | status stream; GET /api/public/v1: routes (array of RouteInfo) (with Service-Version 2026-06-12 too)',
    answer(c, a) {
      // The earlier route list is filtered by "has a JSON answer", which the event stream does not have.
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200 || versionOf(c) !== EARLIER) return;
      const routes = a.json.data?.routes;
      if (Array.isArray(routes)) a.json.data.routes = routes.filter((r: Rec) => r?.path !== P('/stream'));
    },
  },
];
