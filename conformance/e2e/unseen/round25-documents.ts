import { openApiYaml } from '../../../simulator/contract/openapi-yaml.ts';
import type { ProxyAnswer, ProxyCall, UnseenViolation } from './proxy.ts';
import { P } from './proxy-helpers.ts';

/**
 * Round 25 of the unseen violations, part 4: the OpenAPI document and the self-description — creation
 * capabilities with minItems 0, the key operation with minLength 1, the connectors capability filter
 * required, the creation documented without security, error codes typed integer, the Idempotency-Key
 * header with maxLength 64, the failure meta optional, the check capability limited to 80 characters,
 * and the self-description marking the OpenAPI route as authenticated.
 */
type Rec = Record<string, any>;
const isDoc = (c: ProxyCall) => c.method === 'GET' && c.path === P('/openapi.json');
const versionOf = (c: ProxyCall) => c.search.get('version') ?? c.headers['service-version'] ?? '2026-07-01';
/** A document violation; the YAML download of the same version and address is served from the edited JSON. */
const documentEdit = (edit: (doc: Rec) => void): Pick<UnseenViolation, 'request' | 'answer'> => ({
  request(c) {
    if (c.method !== 'GET' || c.path !== P('/openapi.yaml')) return undefined;
    const doc = c.memory.get(`r25-doc:${c.base}:${versionOf(c)}`) as Rec | undefined;
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
    c.memory.set(`r25-doc:${c.base}:${versionOf(c)}`, structuredClone(a.json));
  },
});
const schema = (doc: Rec, name: string) => doc?.components?.schemas?.[name] as Rec | undefined;
const op = (doc: Rec, path: string, method: string) => doc?.paths?.[P(path)]?.[method] as Rec | undefined;
/** Walks a node (not through $ref) and calls `visit` on every object. */
const walk = (node: unknown, visit: (o: Rec) => void) => {
  if (!node || typeof node !== 'object') return;
  visit(node as Rec);
  for (const v of Object.values(node as Rec)) walk(v, visit);
};

export const ROUND25_DOCUMENTS: UnseenViolation[] = [
  {
    name: 'openapi-create-capabilities-min-items-zero',
    statement: 'POST /api/public/v1/connections: capabilities — array of string, 1 to 24 items',
    // The schema generator emits minItems from a "nonempty" flag that the zod-to-OpenAPI adapter drops.
    ...documentEdit((doc) => {
      const caps = schema(doc, 'CreateConnectionRequest')?.properties?.capabilities;
      if (caps) caps.minItems = 0;
    }),
  },
  {
    name: 'openapi-key-operation-min-length-one',
    statement: 'POST /api/public/v1/idempotency-keys: operation (string, required, length 2 to 80)',
    ...documentEdit((doc) => {
      // The request schema documents the generic "non-empty string" type instead of the field's rule.
      const operation = schema(doc, 'CreateIdempotencyKeyRequest')?.properties?.operation;
      if (operation) operation.minLength = 1;
    }),
  },
  {
    name: 'openapi-connectors-capability-filter-required',
    statement: 'GET /api/public/v1/connectors: capability — string, Required: no',
    ...documentEdit((doc) => {
      // The parameter builder marks the first query parameter of a route required (meant for path parameters).
      for (const p of (op(doc, '/connectors', 'get')?.parameters ?? []) as Rec[])
        if (p?.name === 'capability' && p.in === 'query') p.required = true;
    }),
  },
  {
    name: 'openapi-create-documented-without-security',
    statement:
      'Endpoints: POST /api/public/v1/connections | yes + key (Authorization: Bearer token on every authenticated call)',
    ...documentEdit((doc) => {
      // A "security: []" override meant for the public stream was attached to the wrong operation.
      const create = op(doc, '/connections', 'post');
      if (create) create.security = [];
    }),
  },
  {
    name: 'openapi-error-code-typed-integer',
    statement: 'Failure envelope: error.code — string, one of the codes in the Errors part',
    ...documentEdit((doc) => {
      // The error-code enum is documented through its numeric backing values (the internal error table).
      const code = schema(doc, 'FailureEnvelope')?.properties?.error?.properties?.code;
      if (code) {
        code.type = 'integer';
        code.enum = (code.enum ?? []).map((_: unknown, i: number) => i + 1);
      }
    }),
  },
  {
    name: 'openapi-key-header-max-length-64',
    statement: 'Limits: Idempotency-Key — pattern ^[A-Za-z0-9._:-]{8,128}$ (8 to 128 characters)',
    ...documentEdit((doc) => {
      // The header schema gains the storage column's width (64) next to the pattern.
      walk(doc.paths, (o) => {
        if (typeof o.name === 'string' && o.name.toLowerCase() === 'idempotency-key' && o.schema)
          o.schema.maxLength = 64;
      });
    }),
  },
  {
    name: 'openapi-failure-meta-optional',
    statement: 'Failure envelope (every error response): meta — Meta, required: yes',
    ...documentEdit((doc) => {
      // The failure schema was hand-written before meta was added to errors; meta is listed, not required.
      const failure = schema(doc, 'FailureEnvelope');
      if (Array.isArray(failure?.required)) failure.required = failure.required.filter((r: string) => r !== 'meta');
    }),
  },
  {
    name: 'openapi-check-capability-max-length-80',
    statement: 'POST /api/public/v1/capabilities: capability — string, yes, length 2 to 120',
    ...documentEdit((doc) => {
      // The check request reuses the operation field's limit (80) for the capability.
      const cap = schema(doc, 'CapabilityCheckRequest')?.properties?.capability;
      if (cap) cap.maxLength = 80;
    }),
  },
  {
    name: 'self-description-openapi-route-marked-auth',
    statement:
      'Endpoints: GET /api/public/v1/openapi.json | public — RouteInfo: auth | boolean (GET /api/public/v1: routes)',
    answer(c, a) {
      // The route table marks every route registered after the auth middleware as authenticated; the
      // document route is registered late although the middleware skips it.
      if (c.method !== 'GET' || (c.path !== P('') && c.path !== P('/')) || a.status !== 200) return;
      for (const r of (a.json.data?.routes ?? []) as Rec[])
        if (r?.path === P('/openapi.json') && r.auth === false) r.auth = true;
    },
  },
];
