import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 32 of the unseen violations, part 3: the OpenAPI document and the self-description — request
 * schemas that say more or other than what is served (unique capabilities, a capability list in the
 * check, the key header spelt with an underscore, an unrequired operation, connector filters on
 * providers, capability entries as objects, deep-object filters), a stale reason enumeration, the
 * tenant header marked deprecated, a key example outside the pattern, an edge cache serving the earlier
 * version's document, the check's success documented as the default response, and versioned
 * self-descriptions clearing the auth flags.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall, a: ProxyAnswer) =>
  c.method === 'GET' && c.path === P('/openapi.json') && a.status === 200 && Boolean(a.json.paths);
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation; the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec, c: ProxyCall) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r32-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
    if (!doc) return undefined;
    return {
      status: 200,
      headers: { 'content-type': 'application/yaml; charset=utf-8', 'x-content-type-options': 'nosniff' },
      json: {},
      raw: openApiYaml(doc),
    };
  },
  answer(c, a: ProxyAnswer) {
    // Only the current version's description: what earlier ones say is not this contract's.
    if (!isDoc(c, a) || versionOf(c) !== '2026-07-01') return;
    edit(a.json, c);
    c.memory.set(`r32-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const schemaOf = (doc: Rec, name: string) => doc.components?.schemas?.[name] as Rec | undefined;
const op = (doc: Rec, tail: string, method: string) => (doc.paths as Rec)?.[P(tail)]?.[method] as Rec | undefined;

export const ROUND32_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-create-capabilities-unique-items',
    statement:
      'POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items, each of length 2 to 120 (the description states no uniqueness the service does not apply)',
    ...documentEdit((doc) => {
      // A schema generator maps the model's Set<string> to uniqueItems; the service accepts repeats.
      const s = schemaOf(doc, 'CreateConnectionRequest')?.properties?.capabilities;
      if (s && typeof s === 'object') s.uniqueItems = true;
    }),
  },
  {
    name: 'openapi-decision-reason-enum-stale',
    statement:
      'CapabilityDecision (all fields required): reason | string (the description documents the reasons that are served)',
    ...documentEdit((doc) => {
      // The reason was an enumeration of codes in a draft; the served reasons are sentences.
      const s = schemaOf(doc, 'CapabilityDecision')?.properties?.reason;
      if (s && typeof s === 'object') s.enum = ['released', 'not_offered', 'restricted'];
    }),
  },
  {
    name: 'openapi-check-capability-typed-array',
    statement: 'POST /api/public/v1/capabilities: Body: capability | string | yes | length 2 to 120',
    ...documentEdit((doc) => {
      // Copied from the creation's capabilities list when the check was documented.
      const p = schemaOf(doc, 'CapabilityCheckRequest')?.properties;
      if (!p?.capability) return;
      p.capability = { type: 'array', items: { type: 'string', minLength: 2, maxLength: 120 }, minItems: 1 };
    }),
  },
  {
    name: 'openapi-key-header-named-with-underscore',
    statement:
      'POST /api/public/v1/connections: Header Idempotency-Key is required (documented under that name; underscores are dropped by proxies)',
    ...documentEdit((doc) => {
      // The parameter name came from an environment-variable style constant.
      const o = op(doc, '/connections', 'post');
      for (const prm of (o?.parameters ?? []) as Rec[])
        if (String(prm.name).toLowerCase() === 'idempotency-key') prm.name = 'Idempotency_Key';
    }),
  },
  {
    name: 'openapi-key-issue-operation-not-required',
    statement: 'POST /api/public/v1/idempotency-keys: Body (JSON): operation (string, required, length 2 to 80)',
    ...documentEdit((doc) => {
      // The request schema was derived with .partial() for a PATCH that never shipped.
      const s = schemaOf(doc, 'CreateIdempotencyKeyRequest');
      if (s && Array.isArray(s.required)) s.required = s.required.filter((f: string) => f !== 'operation');
    }),
  },
  {
    name: 'openapi-providers-documents-connector-filters',
    statement:
      'GET /api/public/v1/providers: Query parameter category | string | no (the only one; providerId and capability filter connectors)',
    ...documentEdit((doc) => {
      // The providers operation shares a parameter list with the connectors operation.
      const prov = op(doc, '/providers', 'get');
      const conn = op(doc, '/connectors', 'get');
      if (!prov || !conn) return;
      const names = new Set(((prov.parameters ?? []) as Rec[]).map((p) => p.name));
      const extra = ((conn.parameters ?? []) as Rec[]).filter((p) => p.in === 'query' && !names.has(p.name));
      prov.parameters = [...(prov.parameters ?? []), ...structuredClone(extra)];
    }),
  },
  {
    name: 'openapi-tenant-header-deprecated',
    statement:
      'Authentication: Required on every authenticated call: x-service-tenant | identifier of the tenant (the description does not mark it deprecated)',
    ...documentEdit((doc) => {
      // A planned move of the tenant into the token leaked into the published description.
      for (const item of Object.values((doc.paths ?? {}) as Rec))
        for (const o of Object.values((item ?? {}) as Rec))
          for (const prm of ((o as Rec)?.parameters ?? []) as Rec[])
            if (String(prm.name).toLowerCase() === 'x-service-tenant') prm.deprecated = true;
    }),
  },
  {
    name: 'versioned-self-description-routes-auth-cleared',
    statement:
      'GET /api/public/v1: data: routes (array of RouteInfo: auth boolean) — the authenticated routes say auth true, also for a call that sends Service-Version 2026-07-01',
    answer(c, a) {
      // The versioned renderer builds RouteInfo from a table without the auth column and defaults it.
      if (c.method !== 'GET' || c.path !== P('') || a.status !== 200 || c.headers['service-version'] !== '2026-07-01')
        return;
      for (const r of (a.json.data?.routes ?? []) as Rec[]) if (r && typeof r === 'object') r.auth = false;
    },
  },
  {
    name: 'openapi-key-header-example-violates-pattern',
    statement:
      "Limits: Idempotency-Key | pattern ^[A-Za-z0-9._:-]{8,128}$ (the description's example of the header is a key the service accepts)",
    ...documentEdit((doc) => {
      // The example was written by hand for the docs page and never checked against the pattern.
      for (const prm of (op(doc, '/connections', 'post')?.parameters ?? []) as Rec[])
        if (String(prm.name).toLowerCase() === 'idempotency-key') prm.example = 'create connection #42';
    }),
  },
  {
    name: 'openapi-create-capability-items-as-objects',
    statement:
      "POST /api/public/v1/connections: capabilities | array of string | 1 to 24 items, each of length 2 to 120 (the request entries are strings, unlike the answer's objects)",
    ...documentEdit((doc) => {
      // The request schema reused the Connection's capability entry schema.
      const s = schemaOf(doc, 'CreateConnectionRequest')?.properties?.capabilities;
      if (!s || typeof s !== 'object') return;
      s.items = {
        type: 'object',
        properties: { capability: { type: 'string', minLength: 2, maxLength: 120 } },
        required: ['capability'],
      };
    }),
  },
  {
    name: 'openapi-connectors-filters-as-deep-object',
    statement:
      'GET /api/public/v1/connectors: Query parameters capability, providerId, category | string | no (three plain query parameters)',
    ...documentEdit((doc) => {
      // A newer filter convention (filter[capability]=…) was documented before the service adopted it.
      const o = op(doc, '/connectors', 'get');
      if (!o) return;
      const filters = ['capability', 'providerId', 'category'];
      const rest = ((o.parameters ?? []) as Rec[]).filter((p) => !(p.in === 'query' && filters.includes(p.name)));
      const properties = Object.fromEntries(filters.map((f) => [f, { type: 'string' }]));
      const filter = {
        name: 'filter',
        in: 'query',
        style: 'deepObject',
        explode: true,
        schema: { type: 'object', properties },
      };
      o.parameters = [...rest, filter];
    }),
  },
  {
    name: 'document-cache-filled-by-earlier-version',
    statement:
      'GET /api/public/v1/openapi.json: the machine-readable description of this interface (the current one, 2026-07-01, also after an earlier version was downloaded)',
    request(c) {
      // The edge cache passes requests with a query to the origin but stores their answer under the bare
      // path; requests without a query are then served the earlier version's document.
      if (c.method !== 'GET' || (c.path !== P('/openapi.json') && c.path !== P('/openapi.yaml'))) return undefined;
      if (c.search.size || c.headers['service-version']) return undefined;
      const doc = c.memory.get(`r32-cache:${c.base}`) as Rec | undefined;
      if (!doc) return undefined;
      if (c.path === P('/openapi.yaml'))
        return {
          status: 200,
          headers: { 'content-type': 'application/yaml; charset=utf-8' },
          json: {},
          raw: openApiYaml(doc),
        };
      return {
        status: 200,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        json: structuredClone(doc),
      };
    },
    answer(c, a) {
      if (isDoc(c, a) && c.search.get('version') === '2026-06-12')
        c.memory.set(`r32-cache:${c.base}`, structuredClone(a.json));
    },
  },
  {
    name: 'openapi-check-success-under-default-response',
    statement:
      'Endpoints: Success responses use status 200 and the success envelope … may answer with the statuses 400, 401, 403, 404, 409, 428, 429, 500, each with the failure envelope (POST /api/public/v1/capabilities as documented)',
    ...documentEdit((doc) => {
      // An annotation put the decision answer under "default", so every status is documented with the
      // success envelope and no 200 is documented at all.
      const responses = op(doc, '/capabilities', 'post')?.responses as Rec | undefined;
      if (!responses?.['200']) return;
      responses.default = responses['200'];
      delete responses['200'];
      for (const k of Object.keys(responses)) if (/^[45]/.test(k)) delete responses[k];
    }),
  },
];
