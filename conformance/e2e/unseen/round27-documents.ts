import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 27 of the unseen violations, part 4: the OpenAPI document and the self-description — the
 * stream's cursor documented as a header, the Connection's capability entries without `critical`, the
 * success envelopes' data typed as an array, an oauth2 scheme without flows, the alternate address's
 * document without the audit log, the creation answer documented as a decision, a nullable decision
 * `critical`, and the audit-log route described as POST.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation; the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec, c: ProxyCall) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r27-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    edit(a.json, c);
    c.memory.set(`r27-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const schema = (doc: Rec, name: string) => doc?.components?.schemas?.[name] as Rec | undefined;
const op = (doc: Rec, path: string, method: string) => doc?.paths?.[P(path)]?.[method] as Rec | undefined;
const deref = (doc: Rec, s: Rec | undefined): Rec | undefined =>
  typeof s?.$ref === 'string' ? schema(doc, s.$ref.split('/').pop() ?? '') : s;
const operations = (doc: Rec) =>
  Object.values((doc?.paths ?? {}) as Rec).flatMap((item) =>
    ['get', 'post', 'put', 'patch', 'delete'].flatMap((m) => (item?.[m] ? [item[m] as Rec] : [])),
  );
const okSchema = (doc: Rec, o: Rec | undefined) =>
  deref(doc, o?.responses?.['200']?.content?.['application/json']?.schema);

export const ROUND27_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-stream-cursor-documented-in-header',
    statement: 'GET /api/public/v1/stream: | cursor | query | integer, minimum 0 | no | last number read |',
    // The parameter list of the stream was copied from Last-Event-ID's entry, location included.
    ...documentEdit((doc) => {
      for (const p of (op(doc, '/stream', 'get')?.parameters ?? []) as Rec[]) if (p.name === 'cursor') p.in = 'header';
    }),
  },
  {
    name: 'openapi-connection-capability-entries-lack-critical',
    statement:
      'Connection: capabilities — array of object; each entry: capability (string), critical (boolean), idempotencyRequired (boolean)',
    // The entry schema was generated from an older type that had no `critical`.
    ...documentEdit((doc) => {
      const items = deref(doc, deref(doc, schema(doc, 'Connection'))?.properties?.capabilities?.items);
      if (!items?.properties) return;
      delete items.properties.critical;
      if (Array.isArray(items.required)) items.required = items.required.filter((r: string) => r !== 'critical');
    }),
  },
  {
    name: 'openapi-success-data-typed-array',
    statement: 'Success envelope (every JSON success response): data — object, required — payload of the endpoint',
    // The envelope generator wraps every payload as a list ("data is a collection") for the list reads.
    ...documentEdit((doc) => {
      for (const o of operations(doc)) {
        const env = okSchema(doc, o);
        const data = env?.properties?.data;
        if (data && data.type !== 'array') env.properties.data = { type: 'array', items: data };
      }
    }),
  },
  {
    name: 'openapi-oauth2-scheme-without-flows',
    statement:
      'GET /api/public/v1/openapi.json: the machine-readable description of this interface as a JSON object (OpenAPI 3.1); Authorization: Bearer token obtained through an OAuth flow',
    // The flows are filled in at deploy time from the authorization server's metadata; the step was
    // lost, leaving an oauth2 scheme without its required `flows`.
    ...documentEdit((doc) => {
      for (const s of Object.values((doc?.components?.securitySchemes ?? {}) as Rec))
        if (s?.type === 'oauth2') delete s.flows;
    }),
  },
  {
    name: 'alt-openapi-omits-audit-log',
    statement:
      'Endpoints: | GET | /api/public/v1/audit-log | yes | audit log |; The same interface is also offered under a second main-domain address',
    // The alternate address's document is built from the public-gateway route list, which has no audit log.
    ...documentEdit((doc, c) => {
      if (c.base === 'alt' && doc?.paths) delete doc.paths[P('/audit-log')];
    }),
  },
  {
    name: 'openapi-create-answer-refs-decision',
    statement: 'POST /api/public/v1/connections: data: the Connection',
    // A copy-paste of the capability check's response block.
    ...documentEdit((doc) => {
      const env = okSchema(doc, op(doc, '/connections', 'post'));
      if (env?.properties?.data) env.properties.data = { $ref: '#/components/schemas/CapabilityDecision' };
    }),
  },
  {
    name: 'openapi-decision-critical-nullable',
    statement: 'CapabilityDecision (all fields required): critical — boolean',
    // The ORM column is nullable and the schema generator copies the nullability.
    ...documentEdit((doc) => {
      const critical = schema(doc, 'CapabilityDecision')?.properties?.critical;
      if (critical) {
        delete critical.type;
        critical.type = ['boolean', 'null'];
      }
    }),
  },
  {
    name: 'self-description-audit-route-method-post',
    statement:
      'Endpoints: | GET | /api/public/v1/audit-log | yes | audit log |; GET /api/public/v1: routes (array of RouteInfo: method, path, purpose, auth)',
    answer(c, a) {
      // The route list is built from the audit module's registration, which registers its writer (POST).
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200) return;
      for (const r of (a.json.data?.routes ?? []) as Rec[]) if (r.path === P('/audit-log')) r.method = 'POST';
    },
  },
];
