import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 22 of the unseen violations, part 4: the OpenAPI document and the self-description — the
 * creation body's environment documented as optional, the Connection id documented as an integer,
 * RouteInfo.auth and meta.replayed documented as strings, connector capabilities documented as integers,
 * connection capability entries documented with a required label, the stream cursor documented under
 * another name, the providers category filter documented as an array, the key result without
 * expiresAt, the Connector closed to extra fields; the alternate address's self-description with a
 * null authentication, and public routes listed without their auth flag.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const isSelf = (c: ProxyCall) => c.method === 'GET' && (c.path === P('') || c.path === P('/'));
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation: the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r22-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r22-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const paths = (doc: Rec) => (doc && typeof doc.paths === 'object' ? (doc.paths as Rec) : {});
const op = (doc: Rec, tail: string, method: string) => paths(doc)[P(tail)]?.[method] as Rec | undefined;
const schema = (doc: Rec, name: string) => doc?.components?.schemas?.[name] as Rec | undefined;
const param = (o: Rec | undefined, name: string) =>
  (o?.parameters as Rec[] | undefined)?.find((p) => String(p.name).toLowerCase() === name.toLowerCase());

export const ROUND22_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-create-environment-optional',
    statement:
      'POST /api/public/v1/connections: Body (JSON), all fields required: ... environment | string | Environment',
    ...documentEdit((doc) => {
      // The schema generator marks fields with a database default as optional.
      const s = schema(doc, 'CreateConnectionRequest');
      if (Array.isArray(s?.required)) s.required = s.required.filter((f: string) => f !== 'environment');
    }),
  },
  {
    name: 'openapi-connection-id-documented-integer',
    statement: 'Connection: id | string',
    ...documentEdit((doc) => {
      // The generator reads the type from the database column (a serial) rather than the public id.
      const s = schema(doc, 'Connection');
      if (s?.properties?.id) s.properties.id = { type: 'integer', format: 'int64' };
    }),
  },
  {
    name: 'openapi-route-info-auth-typed-string',
    statement: 'RouteInfo: auth | boolean',
    ...documentEdit((doc) => {
      // The route table's auth column ("yes"/"public") was documented instead of the answered boolean.
      const s = schema(doc, 'RouteInfo');
      if (s?.properties?.auth) s.properties.auth = { type: 'string', enum: ['yes', 'public'] };
    }),
  },
  {
    name: 'openapi-meta-replayed-typed-string',
    statement: 'Meta: replayed | boolean | no | true when the response comes from an earlier identical operation',
    ...documentEdit((doc) => {
      // The replay flag is documented from the cache's header representation.
      const s = schema(doc, 'Meta');
      if (s?.properties?.replayed) s.properties.replayed = { type: 'string', enum: ['true', 'false'] };
    }),
  },
  {
    name: 'openapi-connector-capabilities-items-integer',
    statement: 'Connector: capabilities | array of string',
    ...documentEdit((doc) => {
      // The join table's foreign keys were documented instead of the capability names.
      const s = schema(doc, 'Connector');
      if (s?.properties?.capabilities) s.properties.capabilities = { type: 'array', items: { type: 'integer' } };
    }),
  },
  {
    name: 'openapi-connection-entries-require-label',
    statement:
      'Connection: capabilities | array of object | each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    ...documentEdit((doc) => {
      // The entry schema was reused from the Capability catalog record, label included.
      const items = schema(doc, 'Connection')?.properties?.capabilities?.items as Rec | undefined;
      if (!items?.properties) return;
      items.properties.label = { type: 'string' };
      items.required = [...(Array.isArray(items.required) ? items.required : []), 'label'];
      items.additionalProperties = false;
    }),
  },
  {
    name: 'openapi-stream-cursor-named-after',
    statement: 'GET /api/public/v1/stream: cursor | query | integer, minimum 0 | no | last number read',
    ...documentEdit((doc) => {
      // The document uses the handler's internal parameter name.
      const p = param(op(doc, '/stream', 'get'), 'cursor');
      if (p) p.name = 'after';
    }),
  },
  {
    name: 'openapi-providers-category-typed-array',
    statement: 'GET /api/public/v1/providers: category | string | no | restricts to one category',
    ...documentEdit((doc) => {
      // A planned multi-category filter was documented before it was built.
      const p = param(op(doc, '/providers', 'get'), 'category');
      if (p) {
        p.schema = { type: 'array', items: { type: 'string' } };
        p.style = 'form';
        p.explode = false;
      }
    }),
  },
  {
    name: 'openapi-key-result-omits-expires-at',
    statement: 'Idempotency key result: idempotencyKey | string; operation | string; expiresAt | string, date-time',
    ...documentEdit((doc) => {
      // The expiry was added to the answer later and the schema was never regenerated.
      const s = schema(doc, 'IdempotencyKeyResult');
      if (!s?.properties) return;
      delete s.properties.expiresAt;
      if (Array.isArray(s.required)) s.required = s.required.filter((f: string) => f !== 'expiresAt');
      s.additionalProperties = false;
    }),
  },
  {
    name: 'openapi-connector-closed-to-extra-fields',
    statement: 'Connector: ... Additional fields may be present.',
    ...documentEdit((doc) => {
      // A strict-schema switch in the generator closes every object, though connectors carry extra fields.
      const s = schema(doc, 'Connector');
      if (s) s.additionalProperties = false;
    }),
  },
  {
    name: 'alt-self-description-authentication-null',
    statement: 'GET /api/public/v1: data: ... authentication (free-form object)',
    answer(c, a) {
      // The alternate address's deployment lacks the auth-server config, and the block renders as null.
      if (c.base !== 'alt' || !isSelf(c) || a.status !== 200 || !a.json.data) return;
      a.json.data.authentication = null;
    },
  },
  {
    name: 'self-description-public-routes-lack-auth',
    statement: 'GET /api/public/v1: routes (array of RouteInfo) — RouteInfo: auth | boolean',
    answer(c, a) {
      // The route serializer writes `auth: route.auth || undefined`, which drops false.
      const routes = a.json.data?.routes as Rec[] | undefined;
      if (!isSelf(c) || a.status !== 200 || !Array.isArray(routes)) return;
      for (const r of routes) if (r && r.auth === false) delete r.auth;
    },
  },
];
