import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 23 of the unseen violations, part 4: the OpenAPI document and the self-description — the
 * decision's connectorId documented as an integer, RouteInfo.path optional, the creation connectorId
 * with a maximum of 200, Provider without summary, the
 * failure's hint required, the scope label with a uuid format, the check answer's data documented as
 * the bare decision, meta.idempotencyKey required, the self-description's routes documented as a map,
 * the connection list's tenant undocumented;
 * and a self-description whose service is an object.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const isSelf = (c: ProxyCall) => c.method === 'GET' && (c.path === P('') || c.path === P('/'));
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r23-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r23-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const schema = (doc: Rec, name: string) => doc?.components?.schemas?.[name] as Rec | undefined;
/** The JSON schema of a path's 200 answer. */
const okSchema = (doc: Rec, tail: string, method: string) =>
  doc?.paths?.[P(tail)]?.[method]?.responses?.['200']?.content?.['application/json']?.schema as Rec | undefined;
const dropRequired = (s: Rec | undefined, field: string) => {
  if (Array.isArray(s?.required)) s.required = s.required.filter((f: string) => f !== field);
};

export const ROUND23_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-decision-connector-id-typed-integer',
    statement: 'CapabilityDecision (all fields required): connectorId | string',
    ...documentEdit((doc) => {
      // The decision schema is generated from the policy table, where the connector is a foreign key.
      const s = schema(doc, 'CapabilityDecision');
      if (s?.properties?.connectorId) s.properties.connectorId = { type: 'integer' };
    }),
  },
  {
    name: 'openapi-route-info-path-optional',
    statement: 'RouteInfo: method, path, purpose, auth — GET /api/public/v1: routes (array of RouteInfo)',
    ...documentEdit((doc) => {
      // The generator marks fields optional when the TypeScript type has a default; path got one ('/').
      dropRequired(schema(doc, 'RouteInfo'), 'path');
    }),
  },
  {
    name: 'openapi-create-connector-id-max-length-200',
    statement: 'POST /api/public/v1/connections: connectorId | string | length 2 to 120',
    ...documentEdit((doc) => {
      // The creation schema took its maximum from the database column (varchar 200).
      const p = schema(doc, 'CreateConnectionRequest')?.properties?.connectorId;
      if (p) p.maxLength = 200;
    }),
  },
  {
    name: 'openapi-provider-summary-undocumented',
    statement: 'Provider: id, name, category, summary | string',
    ...documentEdit((doc) => {
      // The summary column was added after the schema was frozen and never made it into the document.
      const s = schema(doc, 'Provider');
      if (s?.properties) delete s.properties.summary;
      dropRequired(s, 'summary');
    }),
  },
  {
    name: 'openapi-failure-hint-required',
    statement: 'Failure envelope: error.hint | string | no',
    ...documentEdit((doc) => {
      // Every error of the internal catalogue has a hint, so the generator listed it as required.
      const e = schema(doc, 'FailureEnvelope')?.properties?.error;
      if (Array.isArray(e?.required) && !e.required.includes('hint')) e.required.push('hint');
    }),
  },
  {
    name: 'openapi-scope-label-format-uuid',
    statement:
      'POST /api/public/v1/connections: scopeLabel | string | length 2 to 120 — a descriptive name, e.g. the name of the venue',
    ...documentEdit((doc) => {
      // The field was first planned as a venue id; the document still says it is a uuid.
      const p = schema(doc, 'CreateConnectionRequest')?.properties?.scopeLabel;
      if (p) p.format = 'uuid';
    }),
  },
  {
    name: 'openapi-check-answer-data-is-bare-decision',
    statement: 'POST /api/public/v1/capabilities: data: decision (CapabilityDecision), environment (Environment)',
    ...documentEdit((doc) => {
      // The documented answer skips the wrapper object the handler builds.
      const s = okSchema(doc, '/capabilities', 'post');
      if (s?.properties?.data) s.properties.data = { $ref: '#/components/schemas/CapabilityDecision' };
    }),
  },
  {
    name: 'openapi-meta-idempotency-key-required',
    statement: 'Meta: idempotencyKey | string | no | the key used for the call',
    ...documentEdit((doc) => {
      // Meta was documented from a creation answer, where the key is always present.
      const s = schema(doc, 'Meta');
      if (Array.isArray(s?.required) && !s.required.includes('idempotencyKey')) s.required.push('idempotencyKey');
    }),
  },
  {
    name: 'openapi-self-description-routes-as-map',
    statement: 'GET /api/public/v1: data: ... routes (array of RouteInfo)',
    ...documentEdit((doc) => {
      // The routes were documented from the router's internal table, a map from path to route.
      const data = okSchema(doc, '', 'get')?.properties?.data;
      if (data?.properties?.routes)
        data.properties.routes = { type: 'object', additionalProperties: { $ref: '#/components/schemas/RouteInfo' } };
    }),
  },
  {
    name: 'openapi-connections-list-lacks-tenant',
    statement:
      'GET /api/public/v1/connections: data: tenant (string), count (integer), connections (array of Connection)',
    ...documentEdit((doc) => {
      // The list schema was shared with the catalog lists (count and items only) when the generator was
      // refactored, so the tenant field vanished from the documented answer.
      const data = okSchema(doc, '/connections', 'get')?.properties?.data;
      if (data?.properties) delete data.properties.tenant;
      dropRequired(data, 'tenant');
    }),
  },
  {
    name: 'self-description-service-as-object',
    statement: 'GET /api/public/v1: data: service (string), surface (string), version (string), ...',
    answer(c, a) {
      // The self-description spreads the service's registry entry in place of its name.
      if (!isSelf(c) || a.status !== 200 || typeof a.json.data?.service !== 'string') return;
      a.json.data.service = { name: a.json.data.service, owner: 'connections-team' };
    },
  },
];
